import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * The thread's program: a connection of its own that copies committed WAL frames into the database
 * file when asked. PASSIVE never waits for or blocks the writer; synchronous=FULL because a checkpoint
 * must fsync the database file before the WAL may be rewritten from its start.
 *
 * A commit made while a pass copies leaves that pass short of the WAL's end, and only a pass that
 * reaches the end syncs the database file and lets the writer start the WAL over. The frames
 * committed meanwhile are few, so they are copied at once: a pass that finds the end where the one
 * before it found it means that one reached it (nothing was committed since it began).
 */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("synchronous = FULL");
parentPort.on("message", () => {
  try {
    let r = db.pragma("wal_checkpoint(PASSIVE)")[0];
    for (let i = 0; i < 8 && r.busy === 0; i++) {
      const again = db.pragma("wal_checkpoint(PASSIVE)")[0];
      if (again.log === r.log) break;
      r = again;
    }
    parentPort.postMessage({ busy: r.busy, log: r.log, checkpointed: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
`;

/** What one pass did: frames in the WAL, frames now in the database file (SQLite's own counts). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
  error?: string;
}

/**
 * Checkpoints of a file store, on a thread of their own. SQLite's automatic checkpoint
 * runs inside the commit that crosses 1,000 WAL pages: that commit, and every write queued behind
 * it, waited for a second fsync of the WAL, the copy and an fsync of the database file (several times
 * a commit's own fsync), once every ~130 deliveries.
 * The writer's connection turns it off; this thread does the copy beside it, so a commit is one fsync
 * of the WAL. Durability is untouched: a commit is durable once its WAL frames are synced, and SQLite
 * rewrites the WAL only after a pass has synced the database file. A pass that fails is tried again
 * at the next request.
 */
export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private running = false;

  constructor(
    private readonly file: string,
    private readonly onPass: (r: CheckpointResult) => void = () => {},
  ) {}

  /** Starts a pass unless one is running (the next request after it covers what it missed). */
  request(): void {
    if (this.running) return;
    this.running = true;
    this.thread().postMessage(null);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const w = new Worker(THREAD, { eval: true, workerData: { driver, file: this.file } });
    // Never what keeps the process alive: the WAL already holds every commit a pass would copy.
    w.unref();
    w.on("message", (r: CheckpointResult) => this.done(r));
    w.on("error", (e) => this.lost(w, e));
    w.on("exit", (code) => this.lost(w, new Error(`the store's checkpoint thread exited (code ${code})`)));
    this.worker = w;
    return w;
  }

  private done(r: CheckpointResult): void {
    this.running = false;
    this.onPass(r);
  }

  private lost(w: Worker, e: unknown): void {
    if (this.worker !== w) return;
    this.worker = null;
    if (this.running) this.done({ busy: 1, log: -1, checkpointed: -1, error: e instanceof Error ? e.message : String(e) });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }
}
