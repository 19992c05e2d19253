import Database from "better-sqlite3";
import type { SessionEvent, StoredEvent } from "../session/events.js";
import { DELIVERY_STATE_SQL, DeliveryWriter, INSERT_DELIVERY_SQL } from "./delivery-writer.js";
import { GroupCommit } from "./group-commit.js";
import { migrate } from "./sqlite-schema.js";
import { toSummary, type SessionRow } from "./session-row.js";
import { ConcurrentAppendError, type AppendAt, type DeliveryState, type InboxDelivery, type SessionStore, type SessionSummary } from "./types.js";

/** The embedded default store: one SQLite file, safe to share between processes on one machine. */
export class SqliteSessionStore implements SessionStore {
  private readonly q;
  private readonly appendTx;
  private readonly deliveries: GroupCommit<InboxDelivery, DeliveryState>;

  private constructor(
    private readonly db: Database.Database,
    /** A file's inbox inserts run on their own thread; an in-memory database has no file to share. */
    private readonly writer: DeliveryWriter | null,
  ) {
    // Prepared once: every append and load reuses the compiled statements.
    this.q = {
      nextSeq: db.prepare<[string], { n: number }>("SELECT COALESCE(MAX(seq) + 1, 0) AS n FROM events WHERE session_id = ?"),
      insertEvent: db.prepare("INSERT INTO events (session_id, seq, type, at, body) VALUES (?, ?, ?, ?, ?)"),
      loadEvents: db.prepare<[string], { seq: number; at: string; body: string }>("SELECT seq, at, body FROM events WHERE session_id = ? ORDER BY seq"),
      upsertSession: db.prepare(
        `INSERT INTO sessions (id, key, phase, created_at, updated_at) VALUES (?, NULL, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, updated_at = excluded.updated_at`,
      ),
      listSessions: db.prepare<[], SessionRow>("SELECT * FROM sessions ORDER BY created_at DESC, rowid DESC"),
      setKey: db.prepare("UPDATE sessions SET key = ?, updated_at = ? WHERE id = ?"),
      findByKey: db.prepare<[string], { id: string }>("SELECT id FROM sessions WHERE key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1"),
      insertDelivery: db.prepare(INSERT_DELIVERY_SQL),
      deliveryState: db.prepare<[string], { state: "pending" | "done" }>(DELIVERY_STATE_SQL),
      completeDelivery: db.prepare("UPDATE deliveries SET state = 'done', payload = NULL WHERE id = ?"),
      pendingDeliveries: db.prepare<[], InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE state = 'pending' ORDER BY seq"),
      pendingDelivery: db.prepare<[string], InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE id = ? AND state = 'pending'"),
      claimEffect: db.prepare("INSERT INTO effects (session_id, key, value) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO NOTHING"),
      putEffect: db.prepare(
        `INSERT INTO effects (session_id, key, value) VALUES (?, ?, ?)
         ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value`,
      ),
      getEffect: db.prepare<[string, string], { value: string }>("SELECT value FROM effects WHERE session_id = ? AND key = ?"),
    };
    const insertDeliveries = db.transaction((items: InboxDelivery[]) => {
      const at = new Date().toISOString();
      // A duplicate id in the same batch inserts nothing the second time: it reports `pending`, as it should.
      return items.map((d): DeliveryState =>
        this.q.insertDelivery.run(d.id, d.event, at, d.payload).changes === 1 ? "new" : this.q.deliveryState.get(d.id)!.state,
      );
    });
    this.deliveries = new GroupCommit(insertDeliveries);
    this.appendTx = db.transaction((sessionId: string, events: SessionEvent[], { expectedCount, phase }: AppendAt): StoredEvent[] => {
      const count = this.q.nextSeq.get(sessionId)!.n;
      if (expectedCount !== undefined && count !== expectedCount) {
        throw new ConcurrentAppendError(sessionId, expectedCount, count);
      }
      if (events.length === 0) return [];
      const at = new Date().toISOString();
      // Serialising inside the transaction: an event that cannot be stored rolls back its batch.
      const stored = events.map((e, i) => {
        this.q.insertEvent.run(sessionId, count + i, e.type, at, JSON.stringify(e));
        return { ...e, seq: count + i, at };
      });
      this.q.upsertSession.run(sessionId, phase, at, at);
      return stored;
    });
  }

  /**
   * WAL lets readers (list, load for status) run beside the one writer. synchronous=FULL because
   * receiveDelivery promises durability before the webhook is answered: under WAL, NORMAL may lose the
   * last commits on power loss, and a lost inbox row means a delivery answered 2xx is lost.
   * The cost is one fsync per commit, small beside an LLM call.
   */
  static open(file: string): SqliteSessionStore {
    const db = new Database(file, { timeout: 5000 }); // busy_timeout: wait for another writer, not fail.
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      migrate(db);
      return new SqliteSessionStore(db, db.memory || db.name === "" ? null : new DeliveryWriter(db.name));
    } catch (e) {
      db.close();
      throw e;
    }
  }

  async append(sessionId: string, events: SessionEvent[], at: AppendAt): Promise<StoredEvent[]> {
    // IMMEDIATE: the write lock is taken before the count is read, so the optimistic check holds
    // across processes too.
    return this.appendTx.immediate(sessionId, events, at);
  }

  async load(sessionId: string): Promise<StoredEvent[]> {
    return this.q.loadEvents.all(sessionId).map((r) => ({ ...(JSON.parse(r.body) as SessionEvent), seq: r.seq, at: r.at }));
  }

  /** Newest first. */
  async list(): Promise<SessionSummary[]> {
    return this.q.listSessions.all().map(toSummary);
  }

  async setKey(sessionId: string, key: string): Promise<void> {
    const { changes } = this.q.setKey.run(key, new Date().toISOString(), sessionId);
    // A key pointing at a session with no events would make findByKey return an empty session.
    if (changes === 0) throw new Error(`cannot set key on unknown session ${sessionId}`);
  }

  async findByKey(key: string): Promise<string | null> {
    return this.q.findByKey.get(key)?.id ?? null;
  }

  async receiveDelivery(d: InboxDelivery): Promise<DeliveryState> {
    return this.writer ? this.writer.submit(d) : this.deliveries.submit(d);
  }

  async completeDelivery(deliveryId: string): Promise<void> {
    this.q.completeDelivery.run(deliveryId);
  }

  async pendingDeliveries(): Promise<InboxDelivery[]> {
    return this.q.pendingDeliveries.all();
  }

  async pendingDelivery(deliveryId: string): Promise<InboxDelivery | null> {
    return this.q.pendingDelivery.get(deliveryId) ?? null;
  }

  async claimEffect(sessionId: string, key: string, value: string): Promise<string> {
    this.q.claimEffect.run(sessionId, key, value);
    return this.q.getEffect.get(sessionId, key)!.value;
  }

  async putEffect(sessionId: string, key: string, value: string): Promise<void> {
    this.q.putEffect.run(sessionId, key, value);
  }

  async getEffect(sessionId: string, key: string): Promise<string | null> {
    return this.q.getEffect.get(sessionId, key)?.value ?? null;
  }

  async close(): Promise<void> {
    this.deliveries.flush();
    await this.writer?.close();
    this.db.close();
  }
}
