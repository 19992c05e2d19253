import { SqliteCluster } from "../../helpers/chaos/cluster.js";
import { ChaosDriver } from "../../helpers/chaos/driver.js";
import { Points } from "../../helpers/chaos/points.js";
import { sessionEnds, table } from "../../helpers/chaos/report.js";
import { ChaosWorld } from "../../helpers/chaos/world.js";

/**
 * The chaos test of test/github/crash/chaos-scale-out.slow.test.ts on the default: one process (`npm start`'s
 * shape: receiver and worker in one, SQLite, the in-process queue), ten issues at once, and the
 * process killed -9 at the same ten points and started again — every session in flight dies with
 * it each time. Every session must still end exactly once, with the same checks.
 */
const ISSUES = { model: 2, command: 3, tests: 4, push: 5, pr: 6, checkRun: 7, comment: 8, publish: 10 };
const PARKED = 9;

test("one process on SQLite, 10 sessions, killed -9 at 10 points: every session ends exactly once", async () => {
  const started = Date.now();
  let world: ChaosWorld | null = null;
  // The model and the points call each other's later half: filled in below.
  const late: { driver?: ChaosDriver; points?: Points } = {};
  let passed = false;
  let c: SqliteCluster | null = null;
  try {
    world = await ChaosWorld.create(10, () => late.points!.model);
    const points = (late.points = new Points(world, (p) => late.driver!.reached(p), ISSUES.command));
    points.armAll(ISSUES);
    c = new SqliteCluster(world);
    await c.start("app");
    const driver = (late.driver = new ChaosDriver(world, c, points, PARKED));
    await driver.run(240_000);

    const ends = await sessionEnds(world, c);
    console.log(`chaos on SQLite, one process (${Math.round((Date.now() - started) / 1000)} s):\n${table(driver.strikes, ends)}`);
    expect(driver.timedOut).toBeNull();
    // The sessions' problems first: they name the calls a session that did not end well made.
    expect([...ends.values()].filter((e) => e.problems.length > 0).map((e) => `#${e.issue}: ${e.problems.join("; ")}`)).toEqual([]);
    expect(new Set(driver.strikes.map((s) => s.point.name)).size).toBe(10);
    expect(world.openai.violations).toEqual([]);
    passed = true;
  } finally {
    // Any failure keeps every process's log, not only a timeout.
    if (!passed && late.driver) console.log(`chaos run failed: the detail log is in ${late.driver.writeLog()}`);
    await c?.stop();
    await world?.close();
  }
}, 300_000);
