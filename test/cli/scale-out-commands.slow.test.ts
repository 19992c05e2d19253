import { DurableQueue } from "../../src/queue/pg/durable-queue.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { runCli } from "../helpers/cli-process.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";
import { created } from "../helpers/session-events.js";

/** `patchgate serve`, `worker` and `status`: their usage errors, and what status reads from a real database. */
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at /);

describe("scale-out commands without a PostgreSQL URL", () => {
  test.each(["serve", "worker", "status"])("%s says it needs DATABASE_URL, and how to run without it", async (command) => {
    const r = await runCli([command], { DATABASE_URL: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `patchgate ${command} needs DATABASE_URL=postgres://… (it is not set); one process on the embedded SQLite store is \`npm start\``,
    );
    noStack(r.stderr);
  });

  test("a URL of another database is named as such", async () => {
    const r = await runCli(["worker"], { DATABASE_URL: "mysql://u@h/db" });
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      "patchgate: patchgate worker needs DATABASE_URL=postgres://… (it is not a PostgreSQL URL); one process on the embedded SQLite store is `npm start`",
    ]);
  });

  test("a bad PATCHGATE_WORKER_SLOTS is a usage error naming it", async () => {
    const r = await runCli(["worker"], { DATABASE_URL: "postgres://pg@127.0.0.1:9/none", PATCHGATE_WORKER_SLOTS: "lots" });
    expect([r.code, r.stderr.trim()]).toEqual([2, 'patchgate: PATCHGATE_WORKER_SLOTS must be a positive integer, got "lots"']);
  });

  test("an unknown flag gets the command's usage", async () => {
    const r = await runCli(["status", "--verbose"], { DATABASE_URL: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--verbose'[\s\S]*usage: patchgate status \[--json\]/);
    noStack(r.stderr);
  });
});

const cluster = postgresForTests("patchgate status on a real database");
if (!cluster) {
  test.skip("patchgate status (needs PostgreSQL)", () => undefined);
} else {
  describe("patchgate status", () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await freshDatabase(cluster);
    });
    afterAll(() => db.drop());

    test("shows queue depth, sessions, failed jobs and dead letters; exits 3 while a dead letter waits", async () => {
      const store = new PostgresSessionStore(db.url);
      await store.append("s1", [created()], { phase: "queued" });
      const q = await DurableQueue.start({ url: db.url, pool: store.pool, slots: 0 });
      for (const n of [1, 2]) q.enqueue({ key: `acme/w#${n}`, name: `issue_comment d-${n}`, spec: { kind: "delivery", id: `d-${n}` }, run: async () => {} });
      await q.flushed();
      await q.close();
      await store.pool.query(
        "UPDATE queue_items SET state = 'dead', attempts = 4, last_error = 'its worker died 3 time(s) running it', ended_at = now() WHERE name = 'issue_comment d-2'",
      );
      await store.close();

      const r = await runCli(["status"], { DATABASE_URL: db.url });
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^queue: 1 queued, 0 running\nsessions: 1 queued\nleases: none\nfailed jobs \(newest first\): none\ndead letters:\n {2}\S+ {2}acme\/w#2 {2}issue_comment d-2: its worker died 3 time\(s\) running it \(4 attempts\)\n$/,
      );
      const json = JSON.parse((await runCli(["status", "--json"], { DATABASE_URL: db.url })).stdout);
      expect(json).toMatchObject({ queued: 1, running: 0, sessions: { queued: 1 }, dead: [{ lane: "acme/w#2", attempts: 4 }] });
    });
  });
}
