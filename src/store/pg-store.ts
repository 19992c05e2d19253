import pg from "pg";
import type { SessionEvent, StoredEvent } from "../session/events.js";
import { LeaseLostError, type Fence } from "./fence.js";
import { canonicalJson } from "../session/canonical-json.js";
import { genesisHash, linkHash, type LedgerLink } from "./ledger-chain.js";
import { migratePg } from "./pg-schema.js";
import { toSummary, type SessionRow } from "./session-row.js";
import {
  SANDBOX_RUNS_SQL,
  SPEND_COLUMNS,
  spendOf,
  type InstallationSpend,
  type SandboxRunCount,
  type SpendRow,
  type SpendScope,
  type StartsScope,
} from "./ledger-views.js";
import type { Spend } from "../policy/spend-ceiling.js";
import { ConcurrentAppendError, type AppendAt, type DeliveryState, type InboxDelivery, type SessionStore, type SessionSummary } from "./types.js";

/**
 * The scale-out store (DATABASE_URL=postgres://…): the same facts as the SQLite file, shared by any
 * number of receivers and workers. The constructor returns at once and migrates in the background;
 * every call waits for that, so a process that cannot reach the database fails on its first use with
 * the driver's own error (`ready()` lets a server fail at boot instead).
 *
 * `fenced(lease)` is the same store for a worker's job: each of its writes checks, in the write's
 * own transaction, that the lease is still the worker's (FOR SHARE, so a takeover waits for the
 * write and the write never lands after one).
 */
export class PostgresSessionStore implements SessionStore {
  readonly pool: pg.Pool;
  private readonly migrated: Promise<void>;
  private fence: Fence | null = null;
  private shared = false;

  constructor(url: string, opts: { poolSize?: number } = {}) {
    this.pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle client that loses its server (a restart) is dropped by the pool; without this handler
    // its 'error' event would end the process.
    this.pool.on("error", () => undefined);
    this.migrated = this.pool.connect().then(async (c) => {
      try {
        await migratePg(c);
      } finally {
        c.release();
      }
    });
    this.migrated.catch(() => undefined); // reported by the first call that awaits it
  }

  ready(): Promise<void> {
    return this.migrated;
  }

  /** This store, its writes refused with LeaseLostError once `fence` is no longer the lane's lease. */
  fenced(fence: Fence): PostgresSessionStore {
    const view = Object.create(this) as PostgresSessionStore;
    view.fence = fence;
    view.shared = true;
    return view;
  }

  private async checkFence(c: pg.ClientBase): Promise<void> {
    const f = this.fence;
    if (!f) return;
    const { rowCount } = await c.query("SELECT 1 FROM queue_lanes WHERE lane = $1 AND owner = $2 AND epoch = $3 FOR SHARE", [f.lane, f.owner, f.epoch]);
    if (rowCount === 0) throw new LeaseLostError(f.lane);
  }

  /** A write: one statement, in a transaction with the fence check when there is a fence. */
  private async write(sql: string, params: unknown[]): Promise<pg.QueryResult> {
    if (!this.fence) {
      await this.migrated;
      return this.pool.query(sql, params);
    }
    return this.transaction((c) => c.query(sql, params));
  }

  /** One transaction on one connection; rolled back if `work` throws. */
  async transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.migrated;
    const c = await this.pool.connect();
    try {
      await c.query("BEGIN");
      await this.checkFence(c);
      const out = await work(c);
      await c.query("COMMIT");
      return out;
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.migrated;
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async append(sessionId: string, events: SessionEvent[], { expectedCount, phase }: AppendAt): Promise<StoredEvent[]> {
    return this.transaction(async (c) => {
      // The session's lock is taken before its count and head are read: two writers on any two
      // processes serialise here, and the second chains onto the first one's events.
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [sessionId]);
      const { rows } = await c.query<{ seq: number; hash: string | null }>("SELECT seq, hash FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT 1", [
        sessionId,
      ]);
      const count = rows.length === 0 ? 0 : rows[0].seq + 1;
      if (expectedCount !== undefined && count !== expectedCount) throw new ConcurrentAppendError(sessionId, expectedCount, count);
      if (events.length === 0) return [];
      if (rows.length > 0 && rows[0].hash === null) throw new Error(`session ${sessionId} has events without a chain hash: the ledger was not migrated`);
      const at = new Date().toISOString();
      // Serialised before anything is written: an event that cannot be stored fails the whole batch.
      // The body is kept as the event was built (json, not jsonb, keeps its key order: what a resumed
      // session renders again); the chain hashes the canonical form.
      const bodies = events.map((e) => JSON.stringify(e));
      let prev = rows.length === 0 ? genesisHash(sessionId) : rows[0].hash!;
      const prevs: string[] = [];
      const hashes = events.map((e, i) => {
        prevs.push(prev);
        return (prev = linkHash(sessionId, count + i, at, canonicalJson(e), prev));
      });
      await c.query(
        `INSERT INTO events (session_id, seq, type, at, body, prev, hash)
         SELECT $1, $2::int + i - 1, t, $3, b::json, p, h FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS x(t, b, p, h, i)`,
        [sessionId, count, at, events.map((e) => e.type), bodies, prevs, hashes],
      );
      await c.query(
        `INSERT INTO sessions (id, key, phase, created_at, updated_at) VALUES ($1, NULL, $2, $3, $3)
         ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, updated_at = excluded.updated_at`,
        [sessionId, phase, at],
      );
      return events.map((e, i) => ({ ...e, seq: count + i, at }));
    });
  }

  async load(sessionId: string): Promise<StoredEvent[]> {
    const rows = await this.query<{ seq: number; at: string; body: SessionEvent }>("SELECT seq, at, body FROM events WHERE session_id = $1 ORDER BY seq", [
      sessionId,
    ]);
    return rows.map((r) => ({ ...r.body, seq: r.seq, at: r.at }));
  }

  async loadChain(sessionId: string): Promise<LedgerLink[]> {
    const rows = await this.query<{ seq: number; at: string; body: SessionEvent; prev: string | null; hash: string | null }>(
      "SELECT seq, at, body, prev, hash FROM events WHERE session_id = $1 ORDER BY seq",
      [sessionId],
    );
    return rows.map((r) => ({ seq: r.seq, at: r.at, event: r.body, prev: r.prev, hash: r.hash }));
  }

  async ledgerHead(sessionId: string): Promise<string | null> {
    const rows = await this.query<{ hash: string | null }>("SELECT hash FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT 1", [sessionId]);
    return rows[0]?.hash ?? null;
  }

  /** Newest first. */
  async list(): Promise<SessionSummary[]> {
    const rows = await this.query<SessionRow>("SELECT id, key, phase, created_at, updated_at FROM sessions ORDER BY created_at DESC, ord DESC", []);
    return rows.map(toSummary);
  }

  async setKey(sessionId: string, key: string): Promise<void> {
    const { rowCount } = await this.write("UPDATE sessions SET key = $1, updated_at = $2 WHERE id = $3", [key, new Date().toISOString(), sessionId]);
    // A key pointing at a session with no events would make findByKey return an empty session.
    if (rowCount === 0) throw new Error(`cannot set key on unknown session ${sessionId}`);
  }

  async findByKey(key: string): Promise<string | null> {
    const rows = await this.query<{ id: string }>("SELECT id FROM sessions WHERE key = $1 ORDER BY created_at DESC, ord DESC LIMIT 1", [key]);
    return rows[0]?.id ?? null;
  }

  /**
   * One statement, committed before it returns (synchronous_commit is on by default). Two receivers
   * taking the same id at once: the second one's insert waits for the first and then does nothing.
   */
  async receiveDelivery(d: InboxDelivery): Promise<DeliveryState> {
    const inserted = await this.query(
      `INSERT INTO deliveries (id, event, received_at, payload, state) VALUES ($1, $2, $3, $4, 'pending')
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [d.id, d.event, new Date().toISOString(), d.payload],
    );
    if (inserted.length === 1) return "new";
    const rows = await this.query<{ state: "pending" | "done" }>("SELECT state FROM deliveries WHERE id = $1", [d.id]);
    return rows[0].state;
  }

  async completeDelivery(deliveryId: string): Promise<void> {
    await this.write("UPDATE deliveries SET state = 'done', payload = NULL WHERE id = $1", [deliveryId]);
  }

  async pendingDeliveries(): Promise<InboxDelivery[]> {
    return this.query<InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE state = 'pending' ORDER BY seq", []);
  }

  async pendingDelivery(deliveryId: string): Promise<InboxDelivery | null> {
    const [row] = await this.query<InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE id = $1 AND state = 'pending'", [deliveryId]);
    return row ?? null;
  }

  async claimEffect(sessionId: string, key: string, value: string): Promise<string> {
    // Two statements on purpose: the read must see a row another transaction committed while the
    // insert waited on it, which a read inside the insert's own snapshot would not.
    await this.write("INSERT INTO effects (session_id, key, value) VALUES ($1, $2, $3) ON CONFLICT (session_id, key) DO NOTHING", [sessionId, key, value]);
    return (await this.getEffect(sessionId, key))!;
  }

  async putEffect(sessionId: string, key: string, value: string): Promise<void> {
    await this.write(
      `INSERT INTO effects (session_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value`,
      [sessionId, key, value],
    );
  }

  async getEffect(sessionId: string, key: string): Promise<string | null> {
    const rows = await this.query<{ value: string }>("SELECT value FROM effects WHERE session_id = $1 AND key = $2", [sessionId, key]);
    return rows[0]?.value ?? null;
  }

  async effectsOf(sessionId: string): Promise<{ key: string; value: string }[]> {
    return this.query<{ key: string; value: string }>("SELECT key, value FROM effects WHERE session_id = $1 ORDER BY key", [sessionId]);
  }

  async spendSince(scope: SpendScope, since: string): Promise<Spend> {
    const [row] = await this.query<SpendRow>(
      `SELECT ${SPEND_COLUMNS} FROM model_spend WHERE installation_id = $1 AND ($2::bigint IS NULL OR repository_id = $2) AND at >= $3`,
      [scope.installationId, scope.repoId ?? null, since],
    );
    return spendOf(row);
  }

  async startsSince(scope: StartsScope, since: string): Promise<number> {
    const [row] = await this.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM session_starts WHERE installation_id = $1 AND repository_id = $2 AND requester_id = $3 AND at >= $4",
      [scope.installationId, scope.repoId, scope.requesterId, since],
    );
    return Number(row?.n ?? 0);
  }

  async spendByInstallation(): Promise<InstallationSpend[]> {
    const rows = await this.query<SpendRow & { installation_id: string }>(
      `SELECT installation_id, ${SPEND_COLUMNS} FROM model_spend WHERE installation_id IS NOT NULL GROUP BY installation_id ORDER BY installation_id`,
      [],
    );
    return rows.map((r) => ({ installationId: Number(r.installation_id), ...spendOf(r) }));
  }

  async sandboxRuns(): Promise<SandboxRunCount[]> {
    const rows = await this.query<{ kind: SandboxRunCount["kind"]; limit_fired: string | null; runs: string }>(SANDBOX_RUNS_SQL, []);
    return rows.map((r) => ({ kind: r.kind, limit: r.limit_fired, runs: Number(r.runs) }));
  }

  /** A fenced view leaves the pool to the store it came from. */
  async close(): Promise<void> {
    if (this.shared) return;
    await this.migrated.catch(() => undefined);
    await this.pool.end();
  }
}
