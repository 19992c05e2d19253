/**
 * The physical floor under the webhook figure: an answer that waits for a durable insert cannot come
 * sooner than the bare app's answer plus one fsync of the insert's WAL frames plus the round trip to
 * the thread that does it. Both are sampled here at the deliveries' rate, in the same rounds as the
 * apps, so the table can say how far Patchgate is from what this disk allows, not only from bare.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** A WAL frame is a 24-byte header and a 4 KiB page; a delivery (its ~12 KB payload, the index) is ~8 of them. */
const COMMIT_BYTES = 8 * (24 + 4096);
/** The WAL is rewritten from its start after each checkpoint: writes land in a file of about this size, not a growing one. */
const WAL_BYTES = 4 << 20;

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `n` commits' worth of bytes written in turn over a WAL-sized file in `dir` (the store's disk), each
 * followed by fsync(2), which is what SQLite calls on Linux at a WAL commit with synchronous=FULL.
 */
export async function fsyncSamples(dir: string, n: number, everyMs: number): Promise<number[]> {
  const fd = openSync(join(dir, "floor-wal"), "w");
  const frame = Buffer.alloc(COMMIT_BYTES, 0x5a);
  const out: number[] = [];
  try {
    for (let i = 0, at = 0; i < n; i++, at = (at + COMMIT_BYTES) % WAL_BYTES) {
      await tick(everyMs);
      const t = performance.now();
      writeSync(fd, frame, 0, frame.length, at);
      fsyncSync(fd);
      out.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Round trips of a small message to a worker thread and back (the writer's hop, without its work). */
export async function hopSamples(n: number, everyMs: number): Promise<number[]> {
  const w = new Worker(`require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage(m));`, {
    eval: true,
  });
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      await tick(everyMs);
      const t = performance.now();
      await new Promise((r) => {
        w.once("message", r);
        w.postMessage([{ op: "receiveDelivery", args: [String(i)] }]);
      });
      out.push(performance.now() - t);
    }
  } finally {
    await w.terminate();
  }
  return out;
}
