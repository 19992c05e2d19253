import pg from "pg";
import { DurableQueue } from "../../src/queue/pg/durable-queue.js";

/**
 * A worker process for the durable-queue tests: one slot, a short lease. Each job's spec says what
 * to do: `record` inserts a row into `ran` (the tests read the order from it), `hang` prints
 * `started <name> <attempt>` and never ends — the test kills this process with SIGKILL there.
 * `hangUntil` hangs only on attempts before that number, then records. Every start is a row in `starts`.
 * Prints `ready` once it takes work.
 */
const url = process.env.QUEUE_TEST_URL!;
const pool = new pg.Pool({ connectionString: url, max: 4 });
await pool.query("CREATE TABLE IF NOT EXISTS ran (n BIGSERIAL PRIMARY KEY, lane TEXT, name TEXT, attempt INT, owner TEXT)");
await pool.query("CREATE TABLE IF NOT EXISTS starts (n BIGSERIAL PRIMARY KEY, name TEXT, attempt INT, at TIMESTAMPTZ DEFAULT clock_timestamp())");
const queue = await DurableQueue.start({
  url,
  pool,
  owner: process.env.QUEUE_TEST_OWNER,
  slots: 1,
  leaseMs: 800,
  heartbeatMs: 150,
  sweepMs: 100,
  maxAttempts: Number(process.env.QUEUE_TEST_MAX_ATTEMPTS ?? 3),
  backoff: { baseMs: 300, maxMs: 5_000 },
  runner: async (spec, ctx) => {
    await pool.query("INSERT INTO starts (name, attempt) VALUES ($1, $2)", [ctx.name, ctx.attempt]);
    const hangs = spec.kind === "hang" || (spec.kind === "hangUntil" && ctx.attempt < Number(spec.attempt));
    if (hangs) {
      process.stdout.write(`started ${ctx.name} ${ctx.attempt}\n`);
      await new Promise(() => undefined);
    }
    await pool.query("INSERT INTO ran (lane, name, attempt, owner) VALUES ($1, $2, $3, $4)", [ctx.lane, ctx.name, ctx.attempt, ctx.lease.owner]);
  },
});
process.stdout.write(`ready ${queue.owner}\n`);
