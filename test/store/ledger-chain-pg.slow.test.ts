import pg from "pg";
import { verifyLedgerChain } from "../../src/store/ledger-chain.js";
import { migratePg, PG_SCHEMA_VERSION } from "../../src/store/pg-schema.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { runCli } from "../helpers/cli-process.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";
import { spawnScript } from "../helpers/script-process.js";
import { oldLedgers, OTHER, PUBLISHED, type OldLedgers } from "./old-ledger.js";

/**
 * The same as the SQLite file's (ledger-chain-sqlite.integration.test.ts) on a real PostgreSQL: a
 * database of the version before the chain is chained once at start, verify --session names an event
 * changed by hand, and a process killed inside the migration leaves the old database for the next start.
 */
const cluster = postgresForTests("the ledger chain on PostgreSQL");
/** The version before the chain: the chain is the third step. */
const OLD_VERSION = 2;

if (!cluster) {
  test.skip("the ledger chain on PostgreSQL (needs PostgreSQL)", () => undefined);
} else {
  let db: TestDatabase;
  let old: OldLedgers;

  async function sql<R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query<R>(text, params)).rows;
    } finally {
      await c.end();
    }
  }

  const versions = async () => (await sql<{ version: number }>("SELECT version FROM patchgate_migrations ORDER BY version")).map((r) => r.version);

  beforeEach(async () => {
    db = await freshDatabase(cluster);
    old = oldLedgers();
    // The database as the previous version left it: its steps, then its rows as it inserted them.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await migratePg(c, { to: OLD_VERSION });
      for (const r of old.rows) {
        await c.query("INSERT INTO events (session_id, seq, type, at, body) VALUES ($1, $2, $3, $4, $5::json)", [r.sessionId, r.seq, r.type, r.at, r.body]);
        await c.query(
          `INSERT INTO sessions (id, key, phase, created_at, updated_at) VALUES ($1, NULL, 'done', $2, $2)
           ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at`,
          [r.sessionId, r.at],
        );
      }
    } finally {
      await c.end();
    }
  });

  afterEach(async () => {
    old.repo.cleanup();
    await db.drop();
  });

  test("an old database is chained once at start, its events as they were; appends extend the chain", async () => {
    expect(await versions()).toEqual(Array.from({ length: OLD_VERSION }, (_, i) => i + 1));
    const store = new PostgresSessionStore(db.url, { poolSize: 2 });
    try {
      for (const id of [PUBLISHED, OTHER]) {
        const links = await store.loadChain(id);
        expect(links.map((l) => [l.seq, l.at, l.event])).toEqual(old.rows.filter((r) => r.sessionId === id).map((r) => [r.seq, r.at, JSON.parse(r.body)]));
        expect(verifyLedgerChain(id, links)).toEqual({ ok: true, head: await store.ledgerHead(id) });
      }
      const before = await store.ledgerHead(OTHER);
      await store.append(OTHER, [{ type: "user_message", content: "three" }], { expectedCount: 3, phase: "done" });
      const links = await store.loadChain(OTHER);
      expect(links[3]!.prev).toBe(before);
      expect(verifyLedgerChain(OTHER, links)).toEqual({ ok: true, head: links[3]!.hash });
    } finally {
      await store.close();
    }
    expect(await versions()).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });

  test("one byte changed in an old event in the database: verify --session names that event, and exits 1", async () => {
    await new PostgresSessionStore(db.url, { poolSize: 1 }).close(); // migrated
    const ok = await runCli(["verify", "--session", PUBLISHED], { DATABASE_URL: db.url });
    expect(ok.stdout).toContain("ok   chain: 6 events, every link holds");
    expect(ok.code).toBe(0);
    await sql("UPDATE events SET body = replace(body::text, 'Fix it', 'Fix iT')::json WHERE session_id = $1 AND seq = 2", [PUBLISHED]);
    const r = await runCli(["verify", "--session", PUBLISHED], { DATABASE_URL: db.url });
    expect(r.stdout).toContain(
      "fail chain: broken at event 2 (plan_submitted): its content, seq or time does not match its hash: it was changed after it was stored",
    );
    expect(r.code).toBe(1);
  });

  test("kill -9 inside the migration: the database is as it was, and the next start migrates it exactly once", async () => {
    const migrating = await spawnScript("test/fakes/migrating-store.ts", { MIGRATING_STORE: `pg ${db.url}` });
    await migrating.printed(`chained ${OTHER}`);
    await migrating.kill9();
    expect(migrating.output()).not.toContain("migrated");
    // The server rolls back what the lost connection began: the old version, without the chain's columns.
    expect(await versions()).toEqual(Array.from({ length: OLD_VERSION }, (_, i) => i + 1));
    const columns = await sql<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = 'events'");
    expect(columns.map((c) => c.column_name)).not.toContain("hash");
    const store = new PostgresSessionStore(db.url, { poolSize: 2 });
    try {
      for (const id of [PUBLISHED, OTHER]) expect(verifyLedgerChain(id, await store.loadChain(id))).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
    const hashes = () => sql("SELECT session_id, seq, hash FROM events ORDER BY session_id, seq");
    const once = await hashes();
    await new PostgresSessionStore(db.url, { poolSize: 1 }).close();
    expect(await hashes()).toEqual(once);
    expect(await versions()).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
  });
}
