import type pg from "pg";
import type { Fence } from "../../store/fence.js";
import type { QueueCounts } from "../types.js";
import type { Backoff } from "./backoff.js";

export interface QueuedItem {
  id: string;
  lane: string;
  name: string;
  spec: unknown;
  attempts: number;
  /** From its enqueue to this start, by the database's clock. */
  waitedSeconds: number;
}

/** A lane held by one worker: `epoch` changes whenever the lane changes hands. */
export type LaneLease = Fence;

export type { QueueCounts } from "../types.js";

/**
 * The SQL of the durable queue (tables in src/store/pg-schema.ts). Every statement stands alone, so
 * a worker killed between two of them leaves rows another worker can read and take over.
 */
export class LaneTable {
  constructor(private readonly pool: pg.Pool) {}

  async add(lane: string, group: string, name: string, spec: unknown): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>("INSERT INTO queue_items (lane, grp, name, spec) VALUES ($1, $2, $3, $4) RETURNING id", [
      lane,
      group,
      name,
      JSON.stringify(spec),
    ]);
    return rows[0].id;
  }

  /**
   * The lane to drain next, fairly: of the lanes with open work that no live lease holds and whose
   * head is not waiting out a backoff, one of the group (installation) with the fewest lanes held
   * right now. Between groups holding equally many, the one that started a job least recently (or
   * never) goes first, so an installation that queued a backlog first takes turns with the others
   * instead of winning every tie; within a group, its oldest head. So one busy installation cannot
   * starve another.
   */
  async pick(backoff: Backoff): Promise<string | null> {
    const { rows } = await this.pool.query<{ lane: string }>(
      `WITH heads AS (
         SELECT DISTINCT ON (lane) lane, id, grp, attempts, started_at FROM queue_items
         WHERE state IN ('queued', 'running') ORDER BY lane, id
       ), held AS (
         SELECT lane FROM queue_lanes WHERE owner IS NOT NULL AND expires_at >= now()
       ), busy AS (
         SELECT h.grp, count(*) AS n FROM heads h JOIN held USING (lane) GROUP BY h.grp
       )
       SELECT h.lane FROM heads h LEFT JOIN busy b USING (grp) LEFT JOIN queue_groups g USING (grp)
       WHERE h.lane NOT IN (SELECT lane FROM held)
         AND (h.attempts = 0 OR h.started_at + LEAST($1::float8 * 2 ^ (h.attempts - 1), $2::float8) * interval '1 millisecond' <= now())
       ORDER BY COALESCE(b.n, 0), g.last_start NULLS FIRST, h.id LIMIT 1`,
      [backoff.baseMs, backoff.maxMs],
    );
    return rows[0]?.lane ?? null;
  }

  /** Takes `lane` for `owner` unless a live lease holds it; a new holder gets a new epoch. */
  async acquire(lane: string, owner: string, leaseMs: number): Promise<LaneLease | null> {
    const { rows } = await this.pool.query<{ epoch: string }>(
      `INSERT INTO queue_lanes (lane, owner, expires_at, epoch) VALUES ($1, $2, now() + $3 * interval '1 millisecond', 1)
       ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at, epoch = queue_lanes.epoch + 1, interrupt = NULL, interrupt_item = NULL
       WHERE queue_lanes.owner IS NULL OR queue_lanes.expires_at < now()
       RETURNING epoch`,
      [lane, owner, leaseMs],
    );
    return rows[0] ? { lane, owner, epoch: Number(rows[0].epoch) } : null;
  }

  /**
   * The heartbeat: extends the lease if it is still ours. Returns false when it is not (expired and
   * taken), and the stop waiting for the lane, if any (taken off the row as it is read).
   */
  async renew(l: LaneLease, leaseMs: number): Promise<{ held: boolean; interrupt: { reason: string; item: string } | null }> {
    const { rows } = await this.pool.query<{ interrupt: string | null; interrupt_item: string | null }>(
      `UPDATE queue_lanes n SET expires_at = now() + $4 * interval '1 millisecond', interrupt = NULL, interrupt_item = NULL
       FROM (SELECT lane, interrupt, interrupt_item FROM queue_lanes WHERE lane = $1 FOR UPDATE) o
       WHERE n.lane = o.lane AND n.owner = $2 AND n.epoch = $3 RETURNING o.interrupt, o.interrupt_item`,
      [l.lane, l.owner, l.epoch, leaseMs],
    );
    if (!rows[0]) return { held: false, interrupt: null };
    const { interrupt, interrupt_item } = rows[0];
    return { held: true, interrupt: interrupt !== null && interrupt_item !== null ? { reason: interrupt, item: interrupt_item } : null };
  }

  async release(l: LaneLease): Promise<void> {
    await this.pool.query("UPDATE queue_lanes SET owner = NULL, expires_at = NULL WHERE lane = $1 AND owner = $2 AND epoch = $3", [l.lane, l.owner, l.epoch]);
  }

  /**
   * The lane's oldest open item, marked running and its attempt counted — if the lease is still ours.
   * Its group's last start moves in the same statement, so the pick's tie-break never lags a start.
   */
  async next(l: LaneLease): Promise<QueuedItem | null> {
    const { rows } = await this.pool.query<{ id: string; name: string; spec: unknown; attempts: number; waited: number }>(
      `WITH started AS (
         UPDATE queue_items SET state = 'running', attempts = attempts + 1, started_at = now()
         WHERE id = (SELECT id FROM queue_items WHERE lane = $1 AND state IN ('queued', 'running') ORDER BY id LIMIT 1)
           AND EXISTS (SELECT 1 FROM queue_lanes WHERE lane = $1 AND owner = $2 AND epoch = $3)
         RETURNING id, grp, name, spec, attempts, EXTRACT(EPOCH FROM now() - enqueued_at)::float8 AS waited
       ), stamped AS (
         INSERT INTO queue_groups (grp, last_start) SELECT grp, nextval('queue_group_starts') FROM started
         ON CONFLICT (grp) DO UPDATE SET last_start = excluded.last_start
       )
       SELECT id, name, spec, attempts, waited FROM started`,
      [l.lane, l.owner, l.epoch],
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, spec: row.spec, attempts: row.attempts, waitedSeconds: row.waited, lane: l.lane } : null;
  }

  async end(id: string, state: "done" | "failed" | "dead", error: string | null): Promise<void> {
    await this.pool.query("UPDATE queue_items SET state = $2, last_error = $3, ended_at = now() WHERE id = $1", [id, state, error]);
  }

  /**
   * Asks whichever worker holds `lane` (at its next heartbeat) to abort the item running there now.
   * Returns whether something was running to be asked.
   */
  async interrupt(lane: string, reason: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE queue_lanes SET interrupt = $2, interrupt_item = r.id
       FROM (SELECT id FROM queue_items WHERE lane = $1 AND state = 'running' ORDER BY id LIMIT 1) r
       WHERE lane = $1 AND owner IS NOT NULL AND expires_at >= now()`,
      [lane, reason],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Whether a queued item of `lane` has spec kind `kind` (a stop's cancellation behind the running job). */
  async hasQueued(lane: string, kind: string): Promise<boolean> {
    const { rowCount } = await this.pool.query("SELECT 1 FROM queue_items WHERE lane = $1 AND state = 'queued' AND spec->>'kind' = $2 LIMIT 1", [lane, kind]);
    return (rowCount ?? 0) > 0;
  }

  async openCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM queue_items WHERE state IN ('queued', 'running')");
    return rows[0].n;
  }

  async counts(): Promise<QueueCounts> {
    const open = await this.pool.query<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM queue_items WHERE state IN ('queued', 'running') GROUP BY state",
    );
    const n = (s: string) => open.rows.find((r) => r.state === s)?.n ?? 0;
    const leases = await this.pool.query<{ lane: string; owner: string; expires_at: Date; epoch: string }>(
      "SELECT lane, owner, expires_at, epoch FROM queue_lanes WHERE owner IS NOT NULL ORDER BY lane",
    );
    const ended = await this.pool.query<{ lane: string; name: string; state: string; last_error: string | null; attempts: number; ended_at: Date }>(
      "SELECT lane, name, state, last_error, attempts, ended_at FROM queue_items WHERE state IN ('failed', 'dead') ORDER BY ended_at DESC LIMIT 50",
    );
    return {
      queued: n("queued"),
      running: n("running"),
      leases: leases.rows.map((r) => ({ lane: r.lane, owner: r.owner, expiresAt: r.expires_at.toISOString(), epoch: Number(r.epoch) })),
      failed: ended.rows
        .filter((r) => r.state === "failed")
        .map((r) => ({ lane: r.lane, name: r.name, error: r.last_error, endedAt: r.ended_at.toISOString() })),
      dead: ended.rows
        .filter((r) => r.state === "dead")
        .map((r) => ({ lane: r.lane, name: r.name, error: r.last_error, attempts: r.attempts, endedAt: r.ended_at.toISOString() })),
    };
  }
}
