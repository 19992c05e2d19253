import type Database from "better-sqlite3";
import { chainExistingLedgers, type ChainedHook } from "./sqlite-chain-migration.js";
import { SQLITE_LEDGER_VIEWS } from "./ledger-views.js";

/** A step: SQL, or code for what SQL alone cannot compute (the hash chain). */
type Step = string | ((db: Database.Database, hooks: MigrationHooks) => void);

export interface MigrationHooks {
  /** Stop at this version (default: the newest); the tests make a file as an older Patchgate left it. */
  to?: number;
  chained?: ChainedHook;
}

/**
 * Schema migrations, applied in order. The file's `user_version` is the number of migrations it has
 * seen, so an old file is brought forward on open and a file written by a newer Patchgate is refused
 * instead of being half-understood. Append new steps; never edit a step that has shipped.
 */
const MIGRATIONS: readonly Step[] = [
  `
  CREATE TABLE events (
    session_id TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    at         TEXT    NOT NULL,
    body       TEXT    NOT NULL CHECK (json_valid(body)),
    PRIMARY KEY (session_id, seq)
  ) WITHOUT ROWID;

  CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    key        TEXT,
    phase      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX sessions_by_key ON sessions (key) WHERE key IS NOT NULL;

  CREATE TABLE deliveries (
    id          TEXT PRIMARY KEY,
    event       TEXT NOT NULL,
    received_at TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE effects (
    session_id TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    PRIMARY KEY (session_id, key)
  ) WITHOUT ROWID;
  `,
  // The inbox: a delivery keeps its payload until it is done, in arrival order (`seq`). Rows from
  // before were all processed.
  `
  ALTER TABLE deliveries ADD COLUMN payload TEXT;
  ALTER TABLE deliveries ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('pending', 'done'));
  ALTER TABLE deliveries ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX deliveries_by_seq ON deliveries (seq);
  `,
  // The ledger's hash chain (./ledger-chain.ts): existing events are chained once, as they are.
  (db, hooks) => chainExistingLedgers(db, hooks.chained),
  // Spend and sandbox runs (./ledger-views.ts): views over the recorded events, so what is already in the file counts.
  SQLITE_LEDGER_VIEWS,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database, hooks: MigrationHooks = {}): void {
  const target = hooks.to ?? SCHEMA_VERSION;
  // IMMEDIATE takes the write lock before reading user_version, so two processes opening a fresh
  // file at once cannot both run the same migration.
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(`database schema version ${version} is newer than this Patchgate (${SCHEMA_VERSION})`);
    }
    for (let v = version; v < target; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === "string") db.exec(step);
      else step(db, hooks);
    }
    // PRAGMA takes no bound parameters; the target is a number we control.
    if (version < target) db.pragma(`user_version = ${Math.trunc(target)}`);
  }).immediate();
}
