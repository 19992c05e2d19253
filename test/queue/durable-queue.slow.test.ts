import { DurableQueue } from "../../src/queue/pg/durable-queue.js";
import type { ItemRunner } from "../../src/queue/pg/lane-runner.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import type { Job } from "../../src/queue/types.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";
import { spawnScript, type ScriptProcess } from "../helpers/script-process.js";

/**
 * The scale-out queue on a real PostgreSQL with pg-boss: order within a lane across workers, lanes
 * side by side, a stop that reaches the worker running the lane, failures that do not stop a lane,
 * fairness across installations, and workers killed with SIGKILL whose jobs run again (with
 * backoff) until they are dead-lettered.
 */
const cluster = postgresForTests("the durable queue tests");

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const job = (key: string, name: string, spec: Record<string, unknown> = { kind: "record" }, group?: string): Job => ({
  key,
  name,
  group,
  spec: { kind: "record", ...spec },
  run: () => Promise.reject(new Error("a durable job never runs its closure")),
});

if (!cluster) {
  test.skip("the durable queue (needs PostgreSQL)", () => undefined);
} else {
  let db: TestDatabase;
  let store: PostgresSessionStore;
  const queues: DurableQueue[] = [];
  const procs: ScriptProcess[] = [];
  /** Run before the queues close: a test that failed while jobs wait on it must not hang the close. */
  const afterRelease: (() => void)[] = [];

  async function queue(slots: number, runner?: ItemRunner, more: Partial<Parameters<typeof DurableQueue.start>[0]> = {}): Promise<DurableQueue> {
    const q = await DurableQueue.start({ url: db.url, pool: store.pool, slots, runner, leaseMs: 800, heartbeatMs: 100, sweepMs: 50, ...more });
    queues.push(q);
    return q;
  }

  beforeEach(async () => {
    db = await freshDatabase(cluster);
    store = new PostgresSessionStore(db.url);
    await store.ready();
  });

  afterEach(async () => {
    for (const f of afterRelease.splice(0)) f();
    for (const p of procs.splice(0)) await p.kill9();
    for (const q of queues.splice(0)) await q.close();
    await store.close();
    await db.drop();
  });

  test("jobs of one lane run in order, one at a time, across two workers; other lanes overlap", async () => {
    const order: string[] = [];
    const inLane = new Map<string, number>();
    let overlapped = false;
    let most = 0;
    let now = 0;
    const runner: ItemRunner = async (_spec, ctx) => {
      const n = (inLane.get(ctx.lane) ?? 0) + 1;
      inLane.set(ctx.lane, n);
      if (n > 1) overlapped = true;
      most = Math.max(most, ++now);
      await new Promise((r) => setImmediate(r));
      order.push(ctx.name);
      await new Promise((r) => setTimeout(r, 5));
      inLane.set(ctx.lane, n - 1);
      now -= 1;
    };
    const receiver = await queue(0);
    await queue(2, runner);
    await queue(2, runner);
    for (let i = 0; i < 6; i++) for (const lane of ["a", "b", "c"]) receiver.enqueue(job(lane, `${lane}${i}`));
    await receiver.idle();
    expect(overlapped).toBe(false);
    for (const lane of ["a", "b", "c"]) expect(order.filter((n) => n.startsWith(lane))).toEqual([0, 1, 2, 3, 4, 5].map((i) => `${lane}${i}`));
    expect(most).toBeGreaterThan(1);
    expect((await receiver.counts()).queued).toBe(0);
  });

  test("a job without a spec is refused at enqueue, not lost later", async () => {
    const q = await queue(0);
    expect(() => q.enqueue({ key: "a", name: "closure only", run: async () => {} })).toThrow("job closure only has no spec: it cannot run in another process");
  });

  test("a stop reaches the worker that runs the lane, for the job running then, and the lane goes on", async () => {
    const started = deferred();
    const interrupted: string[] = [];
    const aborts = new Map<string, AbortController>();
    const ran: string[] = [];
    const runner: ItemRunner = async (spec, ctx) => {
      ran.push(ctx.name);
      if (spec.kind !== "long") return;
      const c = new AbortController();
      aborts.set(ctx.lane, c);
      started.resolve();
      await new Promise((resolve) => c.signal.addEventListener("abort", resolve));
    };
    const receiver = await queue(0);
    await queue(1, runner, { onInterrupt: (lane, reason) => (interrupted.push(`${lane}: ${reason}`), aborts.get(lane)?.abort()) });
    receiver.enqueue(job("acme/w#1", "long job", { kind: "long" }));
    await started.promise;
    receiver.enqueue(job("acme/w#1", "cancel"));
    expect(await receiver.interrupt("acme/w#1", "stopped by @maintainer")).toBe(true);
    await receiver.idle();
    expect(interrupted).toEqual(["acme/w#1: stopped by @maintainer"]);
    expect(ran).toEqual(["long job", "cancel"]);
    expect(await receiver.interrupt("acme/w#1", "nothing runs")).toBe(false);
  });

  test("a job that throws ends failed, visibly; the lane's next job still runs", async () => {
    const ran: string[] = [];
    const failed: string[] = [];
    const receiver = await queue(0);
    await queue(
      1,
      async (spec, ctx) => {
        ran.push(ctx.name);
        if (spec.kind === "boom") throw new Error("GitHub is down");
      },
      { onFailed: (item, e) => failed.push(`${item.name}: ${(e as Error).message}`) },
    );
    receiver.enqueue(job("l", "first", { kind: "boom" }));
    receiver.enqueue(job("l", "second"));
    await receiver.idle();
    expect(ran).toEqual(["first", "second"]);
    expect(failed).toEqual(["first: GitHub is down"]);
    expect((await receiver.counts()).failed).toEqual([expect.objectContaining({ lane: "l", name: "first", error: "GitHub is down" })]);
  });

  test("fairness: two slots, six sessions from two installations — the second installation is not starved", async () => {
    const running: string[] = [];
    const gates = new Map<string, () => void>();
    const bothStarted = deferred();
    const receiver = await queue(0);
    for (const n of [1, 2, 3, 4]) receiver.enqueue(job(`busy-org/r#${n}`, `A${n}`, {}, "installation:1"));
    for (const n of [1, 2]) receiver.enqueue(job(`small-org/r#${n}`, `B${n}`, {}, "installation:2"));
    await receiver.flushed();
    // The backlog is there before the worker starts, as after a burst of issues.
    await queue(2, async (_spec, ctx) => {
      running.push(ctx.name);
      if (running.length === 2) bothStarted.resolve();
      await new Promise<void>((resolve) => gates.set(ctx.name, resolve));
    });
    afterRelease.push(() => gates.forEach((open) => open()));
    await bothStarted.promise;
    // Oldest first would have run A1 and A2; the fair pick runs one of each installation.
    expect(running.slice(0, 2).sort()).toEqual(["A1", "B1"]);
    const release = async () => {
      while (gates.size === 0) await new Promise((r) => setTimeout(r, 10));
      const [name, open] = [...gates][0];
      gates.delete(name);
      open();
    };
    for (let i = 0; i < 6; i++) await release();
    await receiver.idle();
    expect(running.sort()).toEqual(["A1", "A2", "A3", "A4", "B1", "B2"]);
  });

  test("fairness: one slot, installation A queued four sessions before B and C queued two each — starts take turns", async () => {
    const started: string[] = [];
    const receiver = await queue(0);
    for (const n of [1, 2, 3, 4]) receiver.enqueue(job(`a-org/r#${n}`, `A${n}`, {}, "installation:1"));
    for (const n of [1, 2]) receiver.enqueue(job(`b-org/r#${n}`, `B${n}`, {}, "installation:2"));
    for (const n of [1, 2]) receiver.enqueue(job(`c-org/r#${n}`, `C${n}`, {}, "installation:3"));
    await receiver.flushed();
    await queue(1, async (_spec, ctx) => {
      started.push(ctx.name);
    });
    await receiver.idle();
    // With one slot every group holds none when a pick is made, so the tie-break decides alone:
    // the installation that started least recently goes next, not the one whose work is oldest.
    expect(started).toEqual(["A1", "B1", "C1", "A2", "B2", "C2", "A3", "A4"]);
  });

  describe("workers killed with SIGKILL", () => {
    const ran = async () => (await store.pool.query<{ name: string; attempt: number; owner: string }>("SELECT name, attempt, owner FROM ran ORDER BY n")).rows;

    async function worker(owner: string, maxAttempts = 3): Promise<ScriptProcess> {
      const p = await spawnScript("test/fakes/queue-worker.ts", {
        QUEUE_TEST_URL: db.url,
        QUEUE_TEST_OWNER: owner,
        QUEUE_TEST_MAX_ATTEMPTS: String(maxAttempts),
      });
      procs.push(p);
      return p;
    }

    test("the job a killed worker held runs again on another, after a backoff, and the lane's order holds", async () => {
      const receiver = await queue(0);
      const w1 = await worker("w1");
      await w1.printed("ready");
      receiver.enqueue(job("acme/w#7", "interrupted", { kind: "hangUntil", attempt: 2 }));
      receiver.enqueue(job("acme/w#7", "after"));
      await w1.printed("started interrupted 1");
      await w1.kill9();
      const w2 = await worker("w2");
      await w2.printed("ready");
      await receiver.idle();
      expect(await ran()).toEqual([
        { name: "interrupted", attempt: 2, owner: "w2" },
        { name: "after", attempt: 1, owner: "w2" },
      ]);
      // The second attempt waited out the backoff (300 ms after the first start, in the worker's settings).
      const starts = await store.pool.query<{ attempt: number; ms: number }>(
        "SELECT attempt, extract(epoch FROM at - min(at) OVER ()) * 1000 AS ms FROM starts WHERE name = 'interrupted' ORDER BY n",
      );
      expect(starts.rows.map((r) => r.attempt)).toEqual([1, 2]);
      expect(Number(starts.rows[1].ms)).toBeGreaterThanOrEqual(300);
      const lane = await store.pool.query<{ epoch: string }>("SELECT epoch FROM queue_lanes WHERE lane = 'acme/w#7'");
      expect(Number(lane.rows[0].epoch)).toBe(2); // w1's lease, then w2's: a new epoch for the new holder
    });

    test("a job that kills every worker that runs it is dead-lettered after its attempts, visibly", async () => {
      const receiver = await queue(0);
      receiver.enqueue(job("acme/w#9", "poison", { kind: "hang" }));
      receiver.enqueue(job("acme/w#9", "next"));
      await receiver.flushed();
      for (const attempt of [1, 2]) {
        const w = await worker(`killed-${attempt}`, 2);
        await w.printed(`started poison ${attempt}`);
        await w.kill9();
      }
      const w3 = await worker("w3", 2);
      await w3.printed("ready");
      await receiver.idle();
      const counts = await receiver.counts();
      expect(counts.dead).toEqual([expect.objectContaining({ lane: "acme/w#9", name: "poison", attempts: 3, error: "its worker died 2 time(s) running it" })]);
      expect(await ran()).toEqual([{ name: "next", attempt: 1, owner: "w3" }]);
    });
  });
}
