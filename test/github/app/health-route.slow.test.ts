import { rmSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppInstance } from "../../harness/app-instance.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { appSettings } from "../../harness/harness.js";
import { DurableQueue } from "../../../src/queue/pg/durable-queue.js";
import { Ledger } from "../../../src/store/ledger.js";
import type { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { created } from "../../helpers/session-events.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";
import { statusJson } from "../../helpers/status-json.js";

/**
 * `/patchgate/health` over real HTTP on the app's own server: counts only without a token (no lane,
 * repository id, worker host or error text), the details of `patchgate status --json` with
 * `Authorization: Bearer $PATCHGATE_HEALTH_TOKEN`, 401 for a wrong token, on SQLite with the
 * embedded queue and on PostgreSQL with the durable queue's receiver.
 */
const TOKEN = "health-token-0123456789abcdef";
const cluster = postgresForTests("the /patchgate/health test on PostgreSQL");

let root: string;
let github: FakeGitHub;
const apps: AppInstance[] = [];

beforeAll(async () => {
  root = tempDir("pg-health-");
  github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await github.close();
  rmSync(root, { recursive: true, force: true });
});

async function app(more: Partial<Parameters<typeof startApp>[0]> = {}): Promise<{ app: AppInstance; url: string }> {
  const a = await startApp({
    ...appSettings(github, join(root, String(apps.length))),
    llm: () => {
      throw new Error("no model here");
    },
    log: () => undefined,
    healthToken: TOKEN,
    ...more,
  });
  apps.push(a);
  return { app: a, url: a.webhookUrl.replace("/api/github/webhooks", "/patchgate/health") };
}

async function get(url: string, token?: string, method = "GET"): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test("SQLite and the embedded queue: counts of sessions by phase, details only with the token", async () => {
  const { app: a, url } = await app();
  await Ledger.create(a.deps.store, created("s1"));
  await Ledger.create(a.deps.store, created("s2"));
  const open = await get(url);
  expect(open).toEqual({ status: 200, body: { status: "ok", queued: 0, running: 0, leases: 0, failed: 0, dead: 0, sessions: { queued: 2 } } });
  const details = await get(url, TOKEN);
  expect(details).toEqual({ status: 200, body: { status: "ok", queued: 0, running: 0, leases: [], failed: [], dead: [], sessions: { queued: 2 } } });
  expect((await get(url, "not-the-token")).status).toBe(401);
  expect((await get(url, undefined, "POST")).status).toBe(405);
  // A job running and one behind it in its lane.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  a.deps.queue.enqueue({ key: "repo:1#1", name: "first", run: () => (started(), held) });
  a.deps.queue.enqueue({ key: "repo:1#1", name: "second", run: async () => undefined });
  await running;
  expect((await get(url)).body).toMatchObject({ queued: 1, running: 1 });
  release();
  await a.deps.queue.idle();
  expect((await get(url)).body).toMatchObject({ queued: 0, running: 0 });
});

test("without a configured token, a bearer gets 401 and counts stay open", async () => {
  const { url } = await app({ healthToken: undefined });
  expect((await get(url)).body).toMatchObject({ status: "ok", sessions: {} });
  expect((await get(url, TOKEN)).status).toBe(401);
});

if (!cluster) {
  test.skip("/patchgate/health on PostgreSQL (needs PostgreSQL)", () => undefined);
} else {
  let db: TestDatabase;
  beforeAll(async () => (db = await freshDatabase(cluster)));
  afterAll(async () => db?.drop());

  test("PostgreSQL receiver: the numbers of `patchgate status --json`, a dead letter as attention, no lane in the open answer", async () => {
    const { app: a, url } = await app({ scaleOut: { databaseUrl: db.url, role: "serve", slots: 0 } });
    const store = a.deps.store as PostgresSessionStore;
    await Ledger.create(store, created("s1"));
    const queue = a.deps.queue as DurableQueue;
    const job = (n: number) => ({
      key: `repo:42#${n}`,
      name: `issue_comment d-${n}`,
      group: "installation:7",
      spec: { kind: "delivery", id: `d-${n}` },
      run: async () => undefined,
    });
    queue.enqueue(job(1));
    queue.enqueue(job(2));
    queue.enqueue(job(3));
    await queue.flushed();
    // One job dead-lettered and one holding a lease, as a worker would leave them.
    await store.pool.query(
      "UPDATE queue_items SET state = 'dead', attempts = 4, last_error = 'its worker died 3 time(s) running it', ended_at = now() WHERE lane = 'repo:42#3'",
    );
    await store.pool.query("UPDATE queue_items SET state = 'running', attempts = 1, started_at = now() WHERE lane = 'repo:42#2'");
    await store.pool.query("INSERT INTO queue_lanes (lane, owner, expires_at, epoch) VALUES ('repo:42#2', 'host-a:123:abc', now() + interval '1 minute', 1)");

    const open = await get(url);
    expect(open).toEqual({ status: 200, body: { status: "attention", queued: 1, running: 1, leases: 1, failed: 0, dead: 1, sessions: { queued: 1 } } });
    expect(JSON.stringify(open.body)).not.toMatch(/repo:|host-a|worker died/);

    const { code, status } = await statusJson(db.url);
    expect(code).toBe(3);
    const details = await get(url, TOKEN);
    expect(details.status).toBe(200);
    expect(details.body).toEqual({ status: "attention", ...status });
    expect(details.body.dead).toEqual([expect.objectContaining({ lane: "repo:42#3", attempts: 4 })]);
  });
}
