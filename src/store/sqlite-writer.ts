import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { SqliteCheckpointer, type CheckpointResult } from "./sqlite-checkpointer.js";
import { WRITES_SOURCE, type WriteOutcome, type WriteRequest } from "./sqlite-writes.js";

/**
 * The thread's program: its own connection to the same file with the store's pragmas, and the store's
 * write program; each batch is answered only after its COMMIT, which at synchronous=FULL is after the fsync.
 * It never checkpoints: that is the checkpoint thread's (./sqlite-checkpointer.ts).
 */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const { createHash } = require("node:crypto");
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.pragma("wal_autocheckpoint = 0");
${WRITES_SOURCE}
const run = makeWrites(db, createHash);
parentPort.on("message", (requests) => {
  try {
    parentPort.postMessage({ outcomes: run(requests) });
  } catch (e) {
    parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
`;

/**
 * Commits between two checkpoint passes: a delivery commits ~8 WAL pages, so about SQLite's own
 * 1,000-page mark, and a pass copies no more than that.
 */
const CHECKPOINT_EVERY = 128;

export interface WriterOptions {
  /** Commits between checkpoint passes (Infinity: none, the WAL keeps every commit). */
  checkpointEvery?: number;
  /** Told of each checkpoint pass as it ends. */
  onCheckpoint?: (r: CheckpointResult) => void;
}

interface Pending {
  request: WriteRequest;
  resolve: (o: WriteOutcome) => void;
  reject: (e: unknown) => void;
}

/**
 * Every write of a file store on a thread of its own: a commit's fsync no longer stops the event loop
 * that runs the other sessions and answers webhooks.
 * It is the file's one writer in this process. A caller still waits for the commit, so "resolved"
 * keeps meaning "on disk"; requests made while a batch is being written go together in the next one
 * (group commit), in the order they were made. The thread starts with the first write, so an idle
 * process has none, and is started again after a failure.
 */
export class SqliteWriter {
  private worker: Worker | null = null;
  private waiting: Pending[] = [];
  private writing: Pending[] | null = null;
  private drained: (() => void)[] = [];
  private readonly checkpointer: SqliteCheckpointer;
  private readonly checkpointEvery: number;
  private commitsSinceCheckpoint = 0;

  constructor(
    private readonly file: string,
    options: WriterOptions = {},
  ) {
    this.checkpointer = new SqliteCheckpointer(file, options.onCheckpoint);
    this.checkpointEvery = options.checkpointEvery ?? CHECKPOINT_EVERY;
  }

  submit(request: WriteRequest): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.next();
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const w = new Worker(THREAD, { eval: true, workerData: { driver, file: this.file } });
    w.on("message", (m: { outcomes?: WriteOutcome[]; error?: string }) => this.settle(m.outcomes ?? null, m.error));
    w.on("error", (e) => this.fail(w, e));
    w.on("exit", (code) => this.fail(w, new Error(`the store's writer thread exited (code ${code})`)));
    this.worker = w;
    return w;
  }

  private next(): void {
    if (this.writing || this.waiting.length === 0) return this.idle();
    const batch = this.waiting;
    this.waiting = [];
    this.writing = batch;
    const w = this.thread();
    w.ref(); // a write in progress keeps the process alive; an idle thread does not
    w.postMessage(batch.map((b) => b.request));
  }

  private settle(outcomes: WriteOutcome[] | null, error: string | undefined): void {
    const batch = this.writing ?? [];
    this.writing = null;
    batch.forEach((b, i) => (outcomes ? b.resolve(outcomes[i]!) : b.reject(new Error(`store write failed: ${error}`))));
    this.next();
    if (++this.commitsSinceCheckpoint >= this.checkpointEvery) {
      this.commitsSinceCheckpoint = 0;
      this.checkpointer.request();
    }
  }

  /** A dead thread fails what it was writing (not known to be committed); what waits goes to a new one. */
  private fail(w: Worker, e: unknown): void {
    if (this.worker !== w) return;
    this.worker = null;
    const batch = this.writing ?? [];
    this.writing = null;
    for (const b of batch) b.reject(e);
    this.next();
  }

  private idle(): void {
    if (this.writing) return;
    this.worker?.unref();
    for (const d of this.drained.splice(0)) d();
  }

  /** Waits for every submitted write to be committed, then ends the thread. */
  async close(): Promise<void> {
    if (this.writing || this.waiting.length > 0) await new Promise<void>((r) => this.drained.push(r));
    const w = this.worker;
    this.worker = null;
    await Promise.all([w?.terminate(), this.checkpointer.close()]);
  }
}
