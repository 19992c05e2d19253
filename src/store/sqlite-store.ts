import Database from "better-sqlite3";
import type { SessionEvent, StoredEvent } from "../session/events.js";
import { canonicalJson } from "../session/canonical-json.js";
import type { LedgerLink } from "./ledger-chain.js";
import { migrate } from "./sqlite-schema.js";
import { SqliteWriter } from "./sqlite-writer.js";
import { writesOn, type AppendAnswer, type RunWrites, type WriteOutcome, type WriteRequest } from "./sqlite-writes.js";
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

/** The embedded default store: one SQLite file, safe to share between processes on one machine. */
export class SqliteSessionStore implements SessionStore {
  private readonly q;

  private constructor(
    private readonly db: Database.Database,
    /**
     * A file's writes run on their own thread and connection (sqlite-writer.ts); this connection only
     * reads, and under WAL each read sees every commit made before it. An in-memory database has no
     * file to share: it runs the same writes here.
     */
    private readonly writer: SqliteWriter | RunWrites,
  ) {
    // Prepared once: every load and lookup reuses the compiled statements.
    this.q = {
      loadEvents: db.prepare<[string], { seq: number; at: string; body: string }>("SELECT seq, at, body FROM events WHERE session_id = ? ORDER BY seq"),
      loadChain: db.prepare<[string], { seq: number; at: string; body: string; prev: string | null; hash: string | null }>(
        "SELECT seq, at, body, prev, hash FROM events WHERE session_id = ? ORDER BY seq",
      ),
      ledgerHead: db.prepare<[string], { hash: string | null }>("SELECT hash FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1"),
      listSessions: db.prepare<[], SessionRow>("SELECT * FROM sessions ORDER BY created_at DESC, rowid DESC"),
      findByKey: db.prepare<[string], { id: string }>("SELECT id FROM sessions WHERE key = ? ORDER BY created_at DESC, rowid DESC LIMIT 1"),
      pendingDeliveries: db.prepare<[], InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE state = 'pending' ORDER BY seq"),
      pendingDelivery: db.prepare<[string], InboxDelivery>("SELECT id, event, payload FROM deliveries WHERE id = ? AND state = 'pending'"),
      getEffect: db.prepare<[string, string], { value: string }>("SELECT value FROM effects WHERE session_id = ? AND key = ?"),
      effectsOf: db.prepare<[string], { key: string; value: string }>("SELECT key, value FROM effects WHERE session_id = ? ORDER BY key"),
      // `? IS NULL OR`: one statement for an installation and for one of its repositories.
      spendSince: db.prepare<[number, number | null, number | null, string], SpendRow>(
        `SELECT ${SPEND_COLUMNS} FROM model_spend WHERE installation_id = ? AND (? IS NULL OR repository_id = ?) AND at >= ?`,
      ),
      startsSince: db.prepare<[number, number, number, string], { n: number }>(
        "SELECT COUNT(*) AS n FROM session_starts WHERE installation_id = ? AND repository_id = ? AND requester_id = ? AND at >= ?",
      ),
      spendByInstallation: db.prepare<[], SpendRow & { installation_id: number }>(
        `SELECT installation_id, ${SPEND_COLUMNS} FROM model_spend WHERE installation_id IS NOT NULL GROUP BY installation_id ORDER BY installation_id`,
      ),
      sandboxRuns: db.prepare<[], { kind: SandboxRunCount["kind"]; limit_fired: string | null; runs: number }>(SANDBOX_RUNS_SQL),
    };
  }

  /**
   * WAL lets readers (list, load for status) run beside the one writer. synchronous=FULL because
   * receiveDelivery promises durability before the webhook is answered: under WAL, NORMAL may lose the
   * last commits on power loss, and a lost inbox row means a delivery answered 2xx is lost.
   * The cost is one fsync per commit (per batch of writes), small beside an LLM call.
   */
  static open(file: string): SqliteSessionStore {
    const db = new Database(file, { timeout: 5000 }); // busy_timeout: wait for another writer, not fail.
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = FULL");
      migrate(db);
      return new SqliteSessionStore(db, db.memory || db.name === "" ? writesOn(db) : new SqliteWriter(db.name));
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Runs one write and returns its value; a refused write throws here, in the caller's stack. */
  private async write(request: WriteRequest): Promise<unknown> {
    const outcome: WriteOutcome = typeof this.writer === "function" ? this.writer([request])[0]! : await this.writer.submit(request);
    if ("value" in outcome) return outcome.value;
    if (request.op === "append" && outcome.concurrent !== undefined) {
      throw new ConcurrentAppendError(request.args[0], request.args[2]!, outcome.concurrent);
    }
    throw new Error(`store ${request.op} failed: ${outcome.error}`);
  }

  async append(sessionId: string, events: SessionEvent[], { expectedCount, phase }: AppendAt): Promise<StoredEvent[]> {
    // Serialised before anything is sent: an event that cannot be stored fails its batch, which stores
    // nothing. The canonical form is what the writer hashes into the chain.
    const rows = events.map((e): [string, string, string] => [e.type, JSON.stringify(e), canonicalJson(e)]);
    // IMMEDIATE (in the writer): the write lock is taken before the count is read, so the optimistic
    // check holds across processes too.
    const { count, at } = (await this.write({ op: "append", args: [sessionId, rows, expectedCount ?? null, phase] })) as AppendAnswer;
    return events.map((e, i) => ({ ...e, seq: count + i, at }));
  }

  async load(sessionId: string): Promise<StoredEvent[]> {
    return this.q.loadEvents.all(sessionId).map((r) => ({ ...(JSON.parse(r.body) as SessionEvent), seq: r.seq, at: r.at }));
  }

  async loadChain(sessionId: string): Promise<LedgerLink[]> {
    return this.q.loadChain.all(sessionId).map((r) => ({ seq: r.seq, at: r.at, event: JSON.parse(r.body) as SessionEvent, prev: r.prev, hash: r.hash }));
  }

  async ledgerHead(sessionId: string): Promise<string | null> {
    return this.q.ledgerHead.get(sessionId)?.hash ?? null;
  }

  /** Newest first. */
  async list(): Promise<SessionSummary[]> {
    return this.q.listSessions.all().map(toSummary);
  }

  async setKey(sessionId: string, key: string): Promise<void> {
    const changes = (await this.write({ op: "setKey", args: [sessionId, key] })) as number;
    // A key pointing at a session with no events would make findByKey return an empty session.
    if (changes === 0) throw new Error(`cannot set key on unknown session ${sessionId}`);
  }

  async findByKey(key: string): Promise<string | null> {
    return this.q.findByKey.get(key)?.id ?? null;
  }

  async receiveDelivery(d: InboxDelivery): Promise<DeliveryState> {
    return (await this.write({ op: "receiveDelivery", args: [d.id, d.event, d.payload] })) as DeliveryState;
  }

  async completeDelivery(deliveryId: string): Promise<void> {
    await this.write({ op: "completeDelivery", args: [deliveryId] });
  }

  async pendingDeliveries(): Promise<InboxDelivery[]> {
    return this.q.pendingDeliveries.all();
  }

  async pendingDelivery(deliveryId: string): Promise<InboxDelivery | null> {
    return this.q.pendingDelivery.get(deliveryId) ?? null;
  }

  async claimEffect(sessionId: string, key: string, value: string): Promise<string> {
    return (await this.write({ op: "claimEffect", args: [sessionId, key, value] })) as string;
  }

  async putEffect(sessionId: string, key: string, value: string): Promise<void> {
    await this.write({ op: "putEffect", args: [sessionId, key, value] });
  }

  /**
   * Forgets a session (`patchgate prune`): its events, effects and row, only while its phase is one of
   * `phases` — judged inside the write, so a session reopened meanwhile is kept. True when it was deleted.
   */
  async deleteSession(sessionId: string, phases: readonly string[]): Promise<boolean> {
    return (await this.write({ op: "deleteSession", args: [sessionId, [...phases]] })) === 1;
  }

  async getEffect(sessionId: string, key: string): Promise<string | null> {
    return this.q.getEffect.get(sessionId, key)?.value ?? null;
  }

  async effectsOf(sessionId: string): Promise<{ key: string; value: string }[]> {
    return this.q.effectsOf.all(sessionId);
  }

  async spendSince(scope: SpendScope, since: string): Promise<Spend> {
    const repo = scope.repoId ?? null;
    return spendOf(this.q.spendSince.get(scope.installationId, repo, repo, since));
  }

  async startsSince(scope: StartsScope, since: string): Promise<number> {
    return this.q.startsSince.get(scope.installationId, scope.repoId, scope.requesterId, since)?.n ?? 0;
  }

  async spendByInstallation(): Promise<InstallationSpend[]> {
    return this.q.spendByInstallation.all().map((r) => ({ installationId: r.installation_id, ...spendOf(r) }));
  }

  async sandboxRuns(): Promise<SandboxRunCount[]> {
    return this.q.sandboxRuns.all().map((r) => ({ kind: r.kind, limit: r.limit_fired, runs: r.runs }));
  }

  async close(): Promise<void> {
    if (typeof this.writer !== "function") await this.writer.close();
    this.db.close();
  }
}
