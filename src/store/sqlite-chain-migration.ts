import type Database from "better-sqlite3";
import { chainOf } from "./ledger-chain.js";

/** Told after each session's chain is written, inside the migration's transaction (progress). */
export type ChainedHook = (sessionId: string) => void;

/**
 * The step that gives an existing file its hash chain: two columns, then every session's events
 * chained in seq order. It runs inside migrate()'s one transaction with the version bump, so a
 * process killed half way leaves the file as it was and the next open does the whole step again.
 */
export function chainExistingLedgers(db: Database.Database, chained?: ChainedHook): void {
  db.exec("ALTER TABLE events ADD COLUMN prev TEXT; ALTER TABLE events ADD COLUMN hash TEXT;");
  const sessions = db.prepare<[], { session_id: string }>("SELECT DISTINCT session_id FROM events ORDER BY session_id").all();
  const rows = db.prepare<[string], { seq: number; at: string; body: string }>("SELECT seq, at, body FROM events WHERE session_id = ? ORDER BY seq");
  const update = db.prepare<[string, string, string, number]>("UPDATE events SET prev = ?, hash = ? WHERE session_id = ? AND seq = ?");
  for (const { session_id: id } of sessions) {
    const links = chainOf(
      id,
      rows.all(id).map((r) => ({ seq: r.seq, at: r.at, event: JSON.parse(r.body) as unknown })),
    );
    for (const l of links) update.run(l.prev, l.hash, id, l.seq);
    chained?.(id);
  }
}
