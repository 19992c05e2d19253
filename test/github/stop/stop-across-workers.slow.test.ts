import { rmSync } from "node:fs";
import { join } from "node:path";
import { startApp, type AppInstance } from "../../harness/app-instance.js";
import type { FakeGitHub } from "../../fakes/github/github-server.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { appSettings, SECRET } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { HangingModel } from "../../fakes/hanging-model.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";
import { storyGitHub } from "../../helpers/story-github.js";

/**
 * Under the durable queue, `/agent stop` taken by one worker while another runs the session: an
 * `/agent approve` queued in the session's lane before the stop stands down on the worker that
 * runs it (which never saw the stop), because the stop's cancellation waits in the same lane.
 * Before, it was applied there and the cancellation followed it. Each app instance has its own
 * store connection, queue and abort registry, as separate processes do.
 */
const cluster = postgresForTests("the stop-across-workers test");

if (!cluster) {
  test.skip("stop across workers (needs PostgreSQL)", () => undefined);
} else {
  let root: string;
  let db: TestDatabase;
  let github: FakeGitHub;
  const apps: AppInstance[] = [];
  const logs = new Map<string, string[]>();

  beforeAll(async () => {
    root = tempDir("pg-stop-workers-");
    db = await freshDatabase(cluster);
    ({ github } = await storyGitHub(root));
  });
  afterAll(async () => {
    for (const a of apps.reverse()) await a.close();
    await github?.close();
    await db?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const model = new HangingModel();
  async function start(role: "serve" | "worker", name: string): Promise<AppInstance> {
    const lines: string[] = [];
    logs.set(name, lines);
    const a = await startApp({
      ...appSettings(github, join(root, name)),
      llm: () => model,
      log: (l) => lines.push(l),
      scaleOut: { databaseUrl: db.url, role, owner: name, slots: 1, leaseMs: 5_000, heartbeatMs: 100, sweepMs: 50 },
    });
    apps.push(a);
    return a;
  }

  test("an approval queued before a stop that another worker took is not applied", async () => {
    const receiver = await start("serve", "receiver");
    const payloads = new Payloads(github.world);
    const send = async (body: string) =>
      expect(
        (
          await sendWebhook(
            receiver.webhookUrl,
            SECRET,
            "issue_comment",
            payloads.comment({ number: ISSUE.number, title: ISSUE.title, body, by: "maintainer" }),
          )
        ).status,
      ).toBeLessThan(300);
    await start("worker", "worker-a");
    await send("/agent fix this");
    await model.called; // worker-a's one slot holds the session's lane
    await start("worker", "worker-b");
    await send("/agent approve"); // queued in the session's lane, behind the running job
    await send("/agent stop"); // its control lane can only go to worker-b
    await receiver.deps.queue.idle();

    expect(logs.get("worker-b")!.some((l) => l.startsWith("stop requested"))).toBe(true);
    expect(logs.get("worker-a")!.some((l) => l.startsWith("stop requested"))).toBe(false);
    const bodies = github.world.comments.map((c) => c.body);
    expect(bodies.filter((b) => b.startsWith("Not applied: `/agent stop` is cancelling this session."))).toHaveLength(1);
    const [summary] = await receiver.deps.store.list();
    const s = (await Ledger.open(receiver.deps.store, summary.id)).state;
    expect([s.phase, s.approvedPlanHash]).toEqual(["cancelled", null]);
    expect(apps.flatMap((a) => a.errors)).toEqual([]);
  }, 60_000);
}
