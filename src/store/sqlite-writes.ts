import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { LINK_SOURCE } from "./ledger-chain.js";

/**
 * Every write the SQLite store makes, as one request type: the writer thread runs them on its own
 * connection (sqlite-writer.ts), and an in-memory database, which has no file another connection
 * could open, runs the very same code in the store's thread.
 */
export type WriteRequest =
  /**
   * `events` are [type, JSON body, canonical JSON], serialised by the caller: the body is stored as the
   * event was built (its key order is what a resumed session renders again), the canonical form is
   * what the chain hashes. `expectedCount` null is unguarded.
   */
  | { op: "append"; args: [sessionId: string, events: [string, string, string][], expectedCount: number | null, phase: string] }
  | { op: "setKey"; args: [sessionId: string, key: string] }
  | { op: "receiveDelivery"; args: [id: string, event: string, payload: string] }
  | { op: "completeDelivery"; args: [id: string] }
  | { op: "claimEffect" | "putEffect"; args: [sessionId: string, key: string, value: string] }
  /** Deletes a session's rows only if its phase is still one of `phases` (checked in the same transaction). */
  | { op: "deleteSession"; args: [sessionId: string, phases: string[]] };

/** An append's answer: the count it found (its first seq) and the time it stored. */
export interface AppendAnswer {
  count: number;
  at: string;
}

/** One request's outcome; `concurrent` is the count a guarded append found instead of the one it expected. */
export type WriteOutcome = { value: unknown } | { error: string; concurrent?: number };

/**
 * The program (CommonJS text, so the thread needs no loader and no TypeScript): `makeWrites(db, createHash)`
 * returns a function that runs a batch of requests in one IMMEDIATE transaction (one fsync for the
 * batch: group commit), each in a savepoint of its own, so a refused request (a stale count) leaves
 * the others in the batch. A failure that ends the transaction itself fails the whole batch.
 * An append chains its events (./ledger-chain.ts) to the last one stored, read under the same write
 * lock as the count: two writers cannot both extend the same head.
 */
export const WRITES_SOURCE = `
${LINK_SOURCE}
function makeWrites(db, createHash) {
  const q = {
    lastEvent: db.prepare("SELECT seq, hash FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1"),
    insertEvent: db.prepare("INSERT INTO events (session_id, seq, type, at, body, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"),
    upsertSession: db.prepare("INSERT INTO sessions (id, key, phase, created_at, updated_at) VALUES (?, NULL, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET phase = excluded.phase, updated_at = excluded.updated_at"),
    setKey: db.prepare("UPDATE sessions SET key = ?, updated_at = ? WHERE id = ?"),
    insertDelivery: db.prepare("INSERT INTO deliveries (id, event, received_at, payload, state, seq) VALUES (?, ?, ?, ?, 'pending', (SELECT COALESCE(MAX(seq), 0) + 1 FROM deliveries)) ON CONFLICT (id) DO NOTHING"),
    deliveryState: db.prepare("SELECT state FROM deliveries WHERE id = ?"),
    completeDelivery: db.prepare("UPDATE deliveries SET state = 'done', payload = NULL WHERE id = ?"),
    claimEffect: db.prepare("INSERT INTO effects (session_id, key, value) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO NOTHING"),
    putEffect: db.prepare("INSERT INTO effects (session_id, key, value) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value"),
    getEffect: db.prepare("SELECT value FROM effects WHERE session_id = ? AND key = ?"),
    sessionPhase: db.prepare("SELECT phase FROM sessions WHERE id = ?"),
    deleteEvents: db.prepare("DELETE FROM events WHERE session_id = ?"),
    deleteEffects: db.prepare("DELETE FROM effects WHERE session_id = ?"),
    deleteSession: db.prepare("DELETE FROM sessions WHERE id = ?"),
  };
  const ops = {
    append(sessionId, events, expectedCount, phase) {
      const last = q.lastEvent.get(sessionId);
      const count = last ? last.seq + 1 : 0;
      if (expectedCount !== null && count !== expectedCount) throw Object.assign(new Error("stale count"), { concurrent: count });
      const at = new Date().toISOString();
      if (events.length === 0) return { count, at };
      if (last && last.hash === null) throw new Error("session " + sessionId + " has events without a chain hash: the ledger was not migrated");
      let prev = last ? last.hash : ledgerGenesis(createHash, sessionId);
      events.forEach(([type, body, canonical], i) => {
        const hash = ledgerLink(createHash, sessionId, count + i, at, canonical, prev);
        q.insertEvent.run(sessionId, count + i, type, at, body, prev, hash);
        prev = hash;
      });
      q.upsertSession.run(sessionId, phase, at, at);
      return { count, at };
    },
    setKey: (sessionId, key) => q.setKey.run(key, new Date().toISOString(), sessionId).changes,
    // A known id inserts nothing: a redelivery (also one in the same batch) reports where it stands.
    receiveDelivery: (id, event, payload) =>
      q.insertDelivery.run(id, event, new Date().toISOString(), payload).changes === 1 ? "new" : q.deliveryState.get(id).state,
    completeDelivery: (id) => q.completeDelivery.run(id).changes,
    claimEffect: (sessionId, key, value) => (q.claimEffect.run(sessionId, key, value), q.getEffect.get(sessionId, key).value),
    putEffect: (sessionId, key, value) => q.putEffect.run(sessionId, key, value).changes,
    deleteSession(sessionId, phases) {
      const row = q.sessionPhase.get(sessionId);
      if (!row || !phases.includes(row.phase)) return 0;
      q.deleteEvents.run(sessionId);
      q.deleteEffects.run(sessionId);
      return q.deleteSession.run(sessionId).changes;
    },
  };
  const one = db.transaction((r) => ops[r.op](...r.args));
  const batch = db.transaction((requests) =>
    requests.map((r) => {
      try {
        return { value: one(r) };
      } catch (e) {
        if (!db.inTransaction) throw e; // SQLite ended the transaction (disk full, I/O): nothing in the batch holds
        return { error: e instanceof Error ? e.message : String(e), concurrent: e.concurrent };
      }
    }),
  );
  return (requests) => batch.immediate(requests);
}
`;

export type RunWrites = (requests: WriteRequest[]) => WriteOutcome[];

/** The same program on the caller's connection (an in-memory database): one function, not a second copy of the SQL. */
export function writesOn(db: Database.Database): RunWrites {
  // The program is this module's constant text, never input: evaluating it here is what the thread does too.
  const make = new Function("db", "createHash", `${WRITES_SOURCE}\nreturn makeWrites(db, createHash);`) as (
    db: Database.Database,
    hash: typeof createHash,
  ) => RunWrites;
  return make(db, createHash);
}
