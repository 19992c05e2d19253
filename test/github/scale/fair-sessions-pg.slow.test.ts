import { startApp, type AppInstance } from "../../harness/app-instance.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../harness/harness.js";
import { createOpenAIClient } from "../../../src/agent/llm/openai-client.js";
import type { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { chaosTitle } from "../../helpers/chaos/model.js";
import { ChaosWorld } from "../../helpers/chaos/world.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";

/**
 * Fairness with whole sessions (issue 13): one worker with 2 slots, installation A asks for 5
 * sessions and then installation B for 1, all queued before the worker starts (a burst). Real
 * sessions run to `done` (clone, plan, approval, edit, sandboxed tests, publication). What ran when
 * is read from the queue's own rows (each job's start and end in PostgreSQL), not from timings:
 * never more than 2 jobs at once, B's session starts before A's last one, and more than 2 sessions
 * are under way at once (a parked session holds no slot). Oldest-first would start B's session only
 * after all five of A's.
 */
const cluster = postgresForTests("the fair-sessions test");
const A = 77;
const B = 78;
const ISSUES: Record<number, number[]> = { [A]: [1, 2, 3, 4, 5], [B]: [6] };

interface Ran {
  lane: string;
  grp: string;
  name: string;
  attempts: number;
  started_at: Date;
  ended_at: Date | null;
}

/** The most jobs whose [start, end] overlap at one moment (an end at the same instant as a start does not overlap it). */
function mostAtOnce(rows: Ran[]): number {
  const marks = rows.flatMap((r) => [
    { t: r.started_at.getTime(), d: 1 },
    { t: (r.ended_at ?? new Date(8.64e15)).getTime(), d: -1 },
  ]);
  marks.sort((x, y) => x.t - y.t || x.d - y.d);
  let now = 0;
  let most = 0;
  for (const m of marks) most = Math.max(most, (now += m.d));
  return most;
}

if (!cluster) {
  test.skip("fair sessions across installations (needs PostgreSQL)", () => undefined);
} else {
  let world: ChaosWorld;
  let db: TestDatabase;
  const apps: AppInstance[] = [];

  beforeAll(async () => {
    const hooks = { command: new Set<number>(), hold: () => false, answering: () => undefined };
    world = await ChaosWorld.create(6, () => hooks);
    db = await freshDatabase(cluster);
  });
  afterAll(async () => {
    for (const a of apps.reverse()) await a.close();
    await world?.close();
    await db?.drop();
  });

  async function start(role: "serve" | "worker", name: string, slots: number): Promise<AppInstance> {
    const a = await startApp({
      ...appSettings(world.github, world.disk(name)),
      llm: () => createOpenAIClient({ apiKey: HARNESS_API_KEY, baseURL: world.openai.baseURL, model: "fake-model" }),
      log: () => undefined,
      scaleOut: { databaseUrl: db.url, role, owner: name, slots, leaseMs: 10_000, heartbeatMs: 200, sweepMs: 100 },
    });
    apps.push(a);
    return a;
  }

  test("2 slots, 5 sessions of installation A then 1 of B: B starts before A's last, all end done, never more than 2 at once", async () => {
    const receiver = await start("serve", "receiver", 0);
    const payloads = new Map<number, Payloads>();
    for (const inst of [A, B]) {
      const p = new Payloads(world.github.world, inst);
      p.headSha = (branch) => readBranch(world.bare, branch)?.sha ?? "0".repeat(40);
      for (const n of ISSUES[inst]) payloads.set(n, p);
    }
    const send = async (event: string, payload: unknown) => {
      const r = await sendWebhook(receiver.webhookUrl, SECRET, event, payload);
      expect(r.status).toBeLessThan(300);
    };
    for (const n of [...ISSUES[A], ...ISSUES[B]]) {
      await send(
        "issue_comment",
        payloads.get(n)!.comment({ number: n, title: chaosTitle(n), issueBody: "`add(2, 3)` returns -1.", body: "/agent fix this", by: "maintainer" }),
      );
    }
    await receiver.deps.queue.flushed!();
    const worker = await start("worker", "worker", 2);

    // The humans: each plan approved by a review, each batch of writes by `/agent approve`, once posted.
    const answered = new Set<string>();
    const ended = (n: number) => world.botComments(n).some((c) => /<!-- patchgate:[0-9a-f-]{36}:(done|ended) -->/.test(c.body));
    const all = [...ISSUES[A], ...ISSUES[B]];
    while (!all.every(ended)) {
      for (const n of all) {
        const pr = world.pull(n);
        if (!pr) continue;
        for (const c of world.botComments(n)) {
          const m = /<!-- patchgate:[0-9a-f-]{36}:((plan|batch)-[0-9a-f]+) -->/.exec(c.body);
          if (!m || answered.has(`${n}:${m[1]}`)) continue;
          answered.add(`${n}:${m[1]}`);
          const p = payloads.get(n)!;
          if (m[2] === "plan") await send("pull_request_review", p.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
          else await send("issue_comment", p.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await receiver.deps.queue.idle();

    const store = receiver.deps.store as PostgresSessionStore;
    const sessions = await store.list();
    expect(sessions.map((s) => s.phase)).toEqual(Array(6).fill("done"));
    expect(worker.errors).toEqual([]);

    const { rows } = await store.pool.query<Ran>("SELECT lane, grp, name, attempts, started_at, ended_at FROM queue_items ORDER BY id");
    expect(rows.filter((r) => r.attempts !== 1 || r.ended_at === null)).toEqual([]);
    expect(mostAtOnce(rows)).toBeLessThanOrEqual(2);
    // Each session's first job is when it started; B's must come before the last of A's.
    const firstStart = new Map<string, { grp: string; at: number }>();
    for (const r of rows) {
      const at = r.started_at.getTime();
      if (!firstStart.has(r.lane) || at < firstStart.get(r.lane)!.at) firstStart.set(r.lane, { grp: r.grp, at });
    }
    const starts = (inst: number) => [...firstStart.values()].filter((s) => s.grp === `installation:${inst}`).map((s) => s.at);
    expect([starts(A).length, starts(B).length]).toEqual([5, 1]);
    expect(starts(B)[0]).toBeLessThan(Math.max(...starts(A)));
    // A parked session holds no slot: more sessions were under way (first job started, last not ended) at once than there are slots.
    const spans = [...new Set(rows.map((r) => r.lane))].map((lane) => {
      const of = rows.filter((r) => r.lane === lane);
      return {
        ...of[0],
        started_at: new Date(Math.min(...of.map((r) => r.started_at.getTime()))),
        ended_at: new Date(Math.max(...of.map((r) => r.ended_at!.getTime()))),
      };
    });
    expect(mostAtOnce(spans)).toBeGreaterThan(2);
    expect(world.openai.violations).toEqual([]);
  }, 120_000);
}
