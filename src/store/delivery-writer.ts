import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { DeliveryState, InboxDelivery } from "./types.js";

/** Inserts a delivery once (a redelivery inserts nothing) with the next arrival number. */
export const INSERT_DELIVERY_SQL = `INSERT INTO deliveries (id, event, received_at, payload, state, seq)
  VALUES (?, ?, ?, ?, 'pending', (SELECT COALESCE(MAX(seq), 0) + 1 FROM deliveries)) ON CONFLICT (id) DO NOTHING`;
export const DELIVERY_STATE_SQL = "SELECT state FROM deliveries WHERE id = ?";

/**
 * The thread's program (CommonJS, run with `eval`: no loader and no TypeScript needed in it). Its own
 * connection to the same file, the same pragmas as the store's, one transaction per batch; each
 * batch is answered only after its COMMIT, which at synchronous=FULL is after the fsync.
 */
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
const insert = db.prepare(workerData.insertSql);
const state = db.prepare(workerData.stateSql);
const write = db.transaction((items, at) => items.map((d) => (insert.run(d.id, d.event, at, d.payload).changes === 1 ? "new" : state.get(d.id).state)));
parentPort.on("message", (items) => {
  try {
    parentPort.postMessage({ states: write(items, new Date().toISOString()) });
  } catch (e) {
    parentPort.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
`;

interface Pending {
  item: InboxDelivery;
  resolve: (s: DeliveryState) => void;
  reject: (e: unknown) => void;
}

/**
 * The inbox's durable insert on a thread of its own (issue 15, webhook_p99): the commit's fsync no
 * longer stops the event loop that parses the next deliveries. The caller still waits for the commit
 * (a delivery is answered 2xx only once it is on disk), and requests made while a batch is being
 * written go together in the next one (group commit). The thread starts with the first delivery, so
 * an idle process has none, and is started again after a failure.
 */
export class DeliveryWriter {
  private worker: Worker | null = null;
  private waiting: Pending[] = [];
  private writing: Pending[] | null = null;
  private drained: (() => void)[] = [];

  constructor(private readonly file: string) {}

  submit(item: InboxDelivery): Promise<DeliveryState> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const w = new Worker(THREAD, { eval: true, workerData: { driver, file: this.file, insertSql: INSERT_DELIVERY_SQL, stateSql: DELIVERY_STATE_SQL } });
    w.on("message", (m: { states?: DeliveryState[]; error?: string }) => this.settle(m.states ?? null, m.error));
    w.on("error", (e) => this.fail(w, e));
    w.on("exit", (code) => this.fail(w, new Error(`the delivery writer thread exited (code ${code})`)));
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
    w.postMessage(batch.map((b) => b.item));
  }

  private settle(states: DeliveryState[] | null, error: string | undefined): void {
    const batch = this.writing ?? [];
    this.writing = null;
    batch.forEach((b, i) => (states ? b.resolve(states[i]!) : b.reject(new Error(`inbox insert failed: ${error}`))));
    this.next();
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

  /** Waits for every submitted delivery to be written, then ends the thread. */
  async close(): Promise<void> {
    if (this.writing || this.waiting.length > 0) await new Promise<void>((r) => this.drained.push(r));
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }
}
