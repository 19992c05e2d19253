import pg from "pg";
import { parseRepoConfig } from "../../../src/config/load-repo-config.js";
import { rememberSchedules } from "../../../src/github/session-work/schedule-registry.js";
import { Ledger } from "../../../src/store/ledger.js";
import { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { PostgresCluster } from "../../helpers/chaos/cluster.js";
import { processOfClientPort } from "../../helpers/chaos/socket-owner.js";
import { OWNER, REPO, ChaosWorld } from "../../helpers/chaos/world.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";

/**
 * Scheduled automations on a scaled-out app: three real worker processes on one PostgreSQL, the
 * fake GitHub, the wall clock. A schedule already due when the workers start fires once, though
 * each worker's start looks and the worker that fires it is killed -9 while it opens the run's
 * issue (after the claim, before the session); one that comes due later fires once, woken by
 * pg-boss's minute job on one worker. Every due time has at most one session.
 */
const cluster = postgresForTests("schedules on PostgreSQL");
const CONFIG = `test: sh test.sh
automations:
  - name: due-at-start
    on: { schedule: { cron: "* * * * *", task: "Tidy the changelog", owner: maintainer } }
  - name: due-later
    on: { schedule: { cron: "* * * * *", task: "Refresh the docs", owner: maintainer } }
`;
const MINUTE = 60_000;
let db: TestDatabase | null = null;
let world: ChaosWorld | null = null;
let c: PostgresCluster | null = null;
let store: PostgresSessionStore | null = null;

function automations() {
  const parsed = parseRepoConfig(CONFIG);
  if (!parsed.ok) throw new Error("the test's config is invalid");
  return parsed.config.automations ?? [];
}

if (!cluster) test.skip("schedules with 3 workers (needs PostgreSQL)", () => undefined);
else
  test("3 workers: a due time fires once, across a worker killed -9 at the firing and through pg-boss's minute wake-up", async () => {
    let passed = false;
    try {
      db = await freshDatabase(cluster);
      world = await ChaosWorld.create(0, () => ({ command: new Set(), hold: () => false, answering: () => undefined }));
      const w = world.github.world;
      w.files.set(".github/patchgate.yml", CONFIG);
      w.fileCommits.push({
        sha: "5c4ed0".padEnd(40, "0"),
        paths: [".github/patchgate.yml"],
        author: w.user("alice"),
        message: "schedules",
        date: "2026-01-01T00:00:00Z",
      });
      store = new PostgresSessionStore(db.url);
      const repo = { id: w.repoId, owner: OWNER, repo: REPO, defaultBranch: w.defaultBranch, installationId: w.installationId };
      const [dueAtStart, dueLater] = automations();
      // Known since two minutes ago: due now, a firing the workers' start finds.
      await rememberSchedules(store, repo, [dueAtStart], new Date(Date.now() - 2 * MINUTE));

      // The first run's issue is held open on the fake GitHub: its worker is the one to kill.
      let callerPort = 0;
      let release!: () => void;
      const reached = new Promise<void>((resolve) =>
        w.holdNext.push({
          method: "POST",
          pathPrefix: `/repos/${OWNER}/${REPO}/issues`,
          match: (path) => path === `/repos/${OWNER}/${REPO}/issues`,
          caller: (s) => (callerPort = s.remotePort),
          reached: () => resolve(),
          until: new Promise<void>((r) => (release = r)),
        }),
      );
      c = new PostgresCluster(world, db.url, 3, { slots: 2, leaseMs: 2_000, maxAttempts: 4, wallClockSchedules: true });
      await Promise.all(c.killable.map((n) => c!.start(n)));
      await reached;
      const pid = processOfClientPort(
        callerPort,
        c.killable.map((n) => c!.process(n).pid),
      );
      const victim = c.killable.find((n) => c!.process(n).pid === pid);
      expect(victim).toBeDefined();
      await c.kill(victim!);
      release();
      await c.restart(victim!);
      await sessionFor(c, "due-at-start");

      // Learnt now: its first due time is the next minute, when no worker's start looks.
      const learnt = new Date();
      await rememberSchedules(store, repo, [dueAtStart, dueLater], learnt);
      await sessionFor(c, "due-later");
      await queueIdle(db.url);

      const triggers = await sessionTriggers(store);
      // Every due time at most once; each schedule's first due time exactly once.
      expect(new Set(triggers).size).toBe(triggers.length);
      // Each run parks for its plan's approval: a later due time of the same schedule starts nothing.
      expect(triggers.filter((t) => t.startsWith("schedule:due-at-start@"))).toHaveLength(1);
      const later = triggers.filter((t) => t.startsWith("schedule:due-later@"));
      expect(later).toHaveLength(1);
      // Due after every worker's start looked: the minute wake-up's pass fired it.
      expect(Date.parse(later[0]!.split("@")[1]!)).toBeGreaterThan(learnt.getTime());
      // The held issue was opened once: the retried firing found it.
      expect([...w.issues.values()].filter((i) => i.title === "Patchgate: due-at-start")).toHaveLength(1);
      passed = true;
    } finally {
      if (!passed && c) console.log(c.logs.map((l) => `== ${l.owner}\n${l.lines.join("\n")}`).join("\n"));
    }
  }, 150_000);

// Here, not in the test's `finally`: a test that timed out never reaches it, and its workers would outlive the run.
afterAll(async () => {
  await c?.stop();
  await store?.close();
  await world?.close();
  await db?.drop();
});

/** Resolves once some worker fired automation `name` and created the session of its run. */
async function sessionFor(workers: PostgresCluster, name: string): Promise<void> {
  const firing = new RegExp(`^automation ${name} fires \\(due (\\S+)\\) on #(\\d+)`);
  const created = (issue: string) => (l: string) => new RegExp(`^session \\S+ created for #${issue} `).test(l);
  let seen: RegExpExecArray | null = null;
  await Promise.race(
    workers.killable.map((n) =>
      workers.process(n).logged((l) => {
        const m = firing.exec(l);
        if (m) seen ??= m;
        return m !== null;
      }),
    ),
  );
  const issue = seen![2]!;
  await Promise.race(workers.killable.map((n) => workers.process(n).logged(created(issue))));
}

async function sessionTriggers(store: PostgresSessionStore): Promise<string[]> {
  const ledgers = await Promise.all((await store.list()).map((s) => Ledger.open(store, s.id)));
  return ledgers.map((l) => l.state.task.source.trigger ?? "").sort();
}

/** Resolves once no job is queued or running on any worker (the database is the only place to ask). */
async function queueIdle(url: string): Promise<void> {
  const q = new pg.Client({ connectionString: url });
  await q.connect();
  try {
    for (;;) {
      const { rows } = await q.query<{ n: number }>("SELECT count(*)::int AS n FROM queue_items WHERE state IN ('queued', 'running')");
      if (rows[0]!.n === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await q.end();
  }
}
