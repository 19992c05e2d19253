import type pg from "pg";
import { chainOf } from "./ledger-chain.js";

/** Told after each session's chain is written, inside the migration's transaction (progress). */
export type PgChainedHook = (sessionId: string) => void;

/**
 * The step that gives an existing database its hash chain: two columns, then every session's events
 * chained in seq order. It runs inside migratePg()'s one transaction with its version row, so a
 * process killed half way leaves the database as it was (the server rolls back what the lost
 * connection began) and the next start does the whole step again.
 */
export async function chainExistingPgLedgers(c: pg.ClientBase, chained?: PgChainedHook): Promise<void> {
  await c.query("ALTER TABLE events ADD COLUMN prev TEXT, ADD COLUMN hash TEXT");
  const { rows: sessions } = await c.query<{ session_id: string }>("SELECT DISTINCT session_id FROM events ORDER BY session_id");
  for (const { session_id: id } of sessions) {
    const { rows } = await c.query<{ seq: number; at: string; body: unknown }>("SELECT seq, at, body FROM events WHERE session_id = $1 ORDER BY seq", [id]);
    const links = chainOf(
      id,
      rows.map((r) => ({ seq: r.seq, at: r.at, event: r.body })),
    );
    await c.query(
      `UPDATE events AS e SET prev = x.p, hash = x.h FROM unnest($2::int[], $3::text[], $4::text[]) AS x(s, p, h)
       WHERE e.session_id = $1 AND e.seq = x.s`,
      [id, links.map((l) => l.seq), links.map((l) => l.prev), links.map((l) => l.hash)],
    );
    chained?.(id);
  }
}
