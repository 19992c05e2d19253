import { rmSync } from "node:fs";
import { join } from "node:path";
import { AppMetrics } from "../../../src/github/metrics/app-metrics.js";
import { startApp, type AppInstance } from "../../harness/app-instance.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { appSettings } from "../../harness/harness.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";
import { parsePrometheusText, valueOf } from "../../helpers/prometheus-text.js";

/**
 * `patchgate_queue_wait_seconds` on a scaled-out app: a job a receiver enqueued is counted by the
 * worker that starts it, with its wait from the enqueue (while no worker ran) to that start.
 */
const cluster = postgresForTests("the queue wait on PostgreSQL");

if (!cluster) test.skip("queue wait on PostgreSQL (needs PostgreSQL)", () => undefined);
else
  test("a worker reports each job's wait from its enqueue to its start, as the in-process queue does", async () => {
    const root = tempDir("pg-queue-wait-");
    let github: FakeGitHub | null = null;
    let db: TestDatabase | null = null;
    const apps: AppInstance[] = [];
    try {
      github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
      db = await freshDatabase(cluster);
      const start = async (name: string, more: Partial<Parameters<typeof startApp>[0]>) => {
        const a = await startApp({
          ...appSettings(github!, join(root, name)),
          llm: () => {
            throw new Error("no model here");
          },
          log: () => undefined,
          ...more,
        });
        apps.push(a);
        return a;
      };
      const receiver = await start("receiver", { scaleOut: { databaseUrl: db.url, role: "serve", slots: 0 } });
      const enqueuedAt = performance.now();
      // A kind no runner knows: the job fails once it starts, after its wait is counted.
      receiver.deps.queue.enqueue({ key: "lane-1", name: "waiting job", spec: { kind: "nothing" }, run: () => Promise.resolve() });
      await receiver.deps.queue.flushed!();
      const metrics = new AppMetrics();
      const worker = await start("worker", { scaleOut: { databaseUrl: db.url, role: "worker", slots: 1, sweepMs: 50 }, metrics });
      await worker.deps.queue.idle();
      const waitedAtMost = (performance.now() - enqueuedAt) / 1000;

      const m = parsePrometheusText(await (await metrics.instruments()).registry.metrics());
      expect(valueOf(m, "patchgate_queue_wait_seconds_count")).toBe(1);
      const waited = valueOf(m, "patchgate_queue_wait_seconds_sum")!;
      expect(waited).toBeGreaterThan(0);
      // The database's clock and this one differ by their reads only: well within the time the test saw.
      expect(waited).toBeLessThan(waitedAtMost + 1);
      expect(m.get("patchgate_queue_wait_seconds")?.type).toBe("histogram");
    } finally {
      for (const a of apps) await a.close();
      await github?.close();
      await db?.drop();
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
