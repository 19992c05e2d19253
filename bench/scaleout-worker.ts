/**
 * One worker process of `scaleout_overhead` (bench/scaleout.ts starts it through tsx): a durable
 * queue with PATCHGATE_BENCH_SLOTS slots on the bench's database that runs each job as the
 * latency-bound session (./latency-session.ts), its clones under PATCHGATE_BENCH_ROOT. Prints
 * `ready` once it takes work; closes on SIGTERM.
 */
import { DurableQueue } from "../src/queue/pg/durable-queue.js";
import { selectSandbox } from "../src/sandbox/select.js";
import { PostgresSessionStore } from "../src/store/pg-store.js";
import { latencySession } from "./latency-session.js";

function setting(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set (bench/scaleout.ts sets it)`);
  return v;
}

const url = setting("PATCHGATE_BENCH_DB");
const slots = Number(setting("PATCHGATE_BENCH_SLOTS"));
const root = setting("PATCHGATE_BENCH_ROOT");
const source = setting("PATCHGATE_BENCH_SOURCE");

const chosen = await selectSandbox("bubblewrap");
if (chosen.sandbox === null) throw new Error(`no bubblewrap: ${chosen.reason}`);
const sandbox = chosen.sandbox;
const store = new PostgresSessionStore(url);
await store.ready();
const queue = await DurableQueue.start({
  url,
  pool: store.pool,
  slots,
  runner: (spec) => latencySession(store, root, source, sandbox, String(spec.session)),
  onFailed: (item, e) => console.error(`scaleout worker: ${item.name} failed: ${e instanceof Error ? e.message : String(e)}`),
});
process.once("SIGTERM", () => {
  void queue
    .close()
    .then(() => store.close())
    .finally(() => process.exit(0));
});
console.log("ready");
