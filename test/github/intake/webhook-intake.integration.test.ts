import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Probot } from "probot";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { GitHubWorld } from "../../fakes/github/github-state.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { HoldingQueue, intakeOnlyApp } from "../../helpers/intake-only-app.js";
import { walCommits } from "../../helpers/wal-commits.js";

/**
 * What a webhook costs before it is answered and leaves behind (issue 15): one commit, so one fsync,
 * for a delivery that asks something, and none for one that stores nothing new (counted in the WAL
 * file); and a queued job that holds nothing of the webhook's payload.
 */
describe("a webhook's intake", () => {
  let dir: string;
  let file: string;
  let store: SqliteSessionStore;
  let queue: HoldingQueue;
  let probot: Probot;
  const payloads = new Payloads(new GitHubWorld("octo-org", "calculator", "http://github.invalid", { id: 1, slug: "patchgate", botId: 2 }));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "pg-webhook-commits-"));
    file = join(dir, "patchgate.sqlite");
    store = SqliteSessionStore.open(file);
    queue = new HoldingQueue();
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    probot = new Probot({ appId: 1, privateKey, secret: "s" });
    await probot.load(
      intakeOnlyApp(store, queue, dir),
      // No server: the routes beside the webhooks are not what this counts.
      { cwd: process.cwd(), addHandler: () => {} },
    );
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a command is one commit before its answer; its redelivery and a comment that asks nothing are none", async () => {
    const before = walCommits(file);
    const sent = Array.from({ length: 20 }, (_, i) => ({
      id: randomUUID(),
      name: "issue_comment" as const,
      payload: payloads.comment({ number: i + 1, body: "/agent status", by: "maintainer" }) as never,
    }));
    for (const d of sent) await probot.receive(d);
    expect(walCommits(file) - before).toBe(20);
    expect(queue.jobs).toHaveLength(20);

    for (const d of sent) await probot.receive(d);
    const bot = payloads.comment({ number: 1, body: "/agent status", by: "patchgate[bot]" });
    await probot.receive({ id: randomUUID(), name: "issue_comment", payload: bot as never });
    expect(walCommits(file) - before).toBe(20);
    expect(queue.jobs).toHaveLength(20);
  });

  test("a queued job holds none of the webhook: its payload is collectable while the job waits", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    // Sent from a scope of its own, so that the job is the only thing here that could keep it.
    const held = await (async () => {
      const payload = payloads.comment({ number: 1, body: "/agent status", by: "maintainer" });
      await probot.receive({ id: randomUUID(), name: "issue_comment", payload: payload as never });
      return new WeakRef(payload);
    })();
    expect(queue.jobs).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    gc();
    expect(held.deref()).toBeUndefined();
  });
});
