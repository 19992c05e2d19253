import type pg from "pg";
import { chainExistingPgLedgers, type PgChainedHook } from "./pg-chain-migration.js";
import { PG_LEDGER_VIEWS } from "./ledger-views.js";

/** A step: SQL, or code for what SQL alone cannot compute (the hash chain). */
type Step = string | ((client: pg.ClientBase, hooks: PgMigrationHooks) => Promise<void>);

export interface PgMigrationHooks {
  /** Stop at this version (default: the newest); the tests make a database as an older Patchgate left it. */
  to?: number;
  chained?: PgChainedHook;
}

/**
 * Postgres migrations, applied in order at start. `patchgate_migrations` records which ran, so a
 * database is brought forward when a newer Patchgate starts and a database written by a newer one is
 * refused instead of half-understood. Append new steps; never edit a step that has shipped. The list
 * mirrors ./sqlite-schema.ts table for table, so both stores keep the same facts.
 */
const MIGRATIONS: readonly Step[] = [
  `
  CREATE TABLE events (
    session_id TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    at         TEXT    NOT NULL,
    body       JSON    NOT NULL,
    PRIMARY KEY (session_id, seq)
  );

  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    ord        BIGSERIAL,
    key        TEXT,
    phase      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX sessions_by_key ON sessions (key) WHERE key IS NOT NULL;

  CREATE TABLE deliveries (
    id          TEXT PRIMARY KEY,
    event       TEXT NOT NULL,
    received_at TEXT NOT NULL,
    payload     TEXT,
    state       TEXT NOT NULL CHECK (state IN ('pending', 'done')),
    seq         BIGSERIAL
  );
  CREATE INDEX deliveries_pending ON deliveries (seq) WHERE state = 'pending';

  CREATE TABLE effects (
    session_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (session_id, key)
  );
  `,
  // The durable queue (src/queue/pg): jobs in lanes, run in order one lane at a time; a lane is
  // leased to one worker (owner, expiry renewed by its heartbeat, an epoch that every fenced write
  // checks). `interrupt` carries a stop to whichever worker holds the lane, for the item
  // running when it was asked (`interrupt_item`), never for one that starts later.
  `
  CREATE TABLE queue_items (
    id          BIGSERIAL PRIMARY KEY,
    lane        TEXT NOT NULL,
    grp         TEXT NOT NULL,
    name        TEXT NOT NULL,
    spec        JSON NOT NULL,
    state       TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed', 'dead')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT,
    enqueued_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at  TIMESTAMPTZ,
    ended_at    TIMESTAMPTZ
  );
  CREATE INDEX queue_items_open ON queue_items (lane, id) WHERE state IN ('queued', 'running');
  CREATE INDEX queue_items_ended ON queue_items (state, ended_at) WHERE state IN ('failed', 'dead');

  CREATE TABLE queue_lanes (
    lane       TEXT PRIMARY KEY,
    owner      TEXT,
    expires_at TIMESTAMPTZ,
    epoch      BIGINT NOT NULL DEFAULT 0,
    interrupt  TEXT,
    interrupt_item BIGINT
  );
  `,
  // The ledger's hash chain (./ledger-chain.ts): existing events are chained once, as they are.
  (client, hooks) => chainExistingPgLedgers(client, hooks.chained),
  // Spend and sandbox runs (./ledger-views.ts): views over the recorded events, so what is already stored counts.
  PG_LEDGER_VIEWS,
  // The durable queue's tie-break between installations holding equally many lanes: when each group
  // last started a job, as a number from one sequence (one order across all workers, no clock ties).
  // Keyed by group, so the pick joins it by its primary key.
  `
  CREATE SEQUENCE queue_group_starts;
  CREATE TABLE queue_groups (
    grp        TEXT PRIMARY KEY,
    last_start BIGINT NOT NULL
  );
  `,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** Any constant both Patchgate processes agree on: the lock that serialises migrations. */
const MIGRATION_LOCK = 0x7061_7463;

/**
 * Runs the missing migrations in one transaction under an advisory lock, so that receivers and
 * workers starting together against a fresh database apply each step once.
 */
export async function migratePg(client: pg.ClientBase, hooks: PgMigrationHooks = {}): Promise<void> {
  const target = hooks.to ?? PG_SCHEMA_VERSION;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS patchgate_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    const { rows } = await client.query<{ v: number | null }>("SELECT MAX(version) AS v FROM patchgate_migrations");
    const version = rows[0].v ?? 0;
    if (version > PG_SCHEMA_VERSION) {
      throw new Error(`database schema version ${version} is newer than this Patchgate (${PG_SCHEMA_VERSION})`);
    }
    for (let v = version; v < target; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === "string") await client.query(step);
      else await step(client, hooks);
      await client.query("INSERT INTO patchgate_migrations (version) VALUES ($1)", [v + 1]);
    }
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}
