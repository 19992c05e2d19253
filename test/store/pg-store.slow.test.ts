import pg from "pg";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { openStore } from "../../src/store/open-store.js";
import { PG_SCHEMA_VERSION } from "../../src/store/pg-schema.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";
import { created } from "../helpers/session-events.js";
import { describeStoreContract } from "./store-contract.js";

/** The scale-out store: the same contract as SQLite on a real PostgreSQL, then its migrations. */
const cluster = postgresForTests("the PostgreSQL store contract");

if (!cluster) {
  test.skip("the PostgreSQL store contract (needs PostgreSQL)", () => undefined);
} else {
  describe("the store contract on PostgreSQL", () => {
    describeStoreContract(async () => {
      const db = await freshDatabase(cluster);
      return { open: () => new PostgresSessionStore(db.url, { poolSize: 4 }), cleanup: db.drop };
    });
  });

  describe("migrations", () => {
    let db: TestDatabase;
    beforeEach(async () => {
      db = await freshDatabase(cluster);
    });
    afterEach(() => db.drop());

    async function versions(): Promise<number[]> {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        return (await c.query<{ version: number }>("SELECT version FROM patchgate_migrations ORDER BY version")).rows.map((r) => r.version);
      } finally {
        await c.end();
      }
    }

    test("six processes starting at once on an empty database apply each step once", async () => {
      const stores = Array.from({ length: 6 }, () => new PostgresSessionStore(db.url, { poolSize: 2 }));
      try {
        await Promise.all(stores.map((s) => s.ready()));
        expect(await versions()).toEqual(Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => i + 1));
        await stores[3].append("s1", [created()], { phase: "queued" });
        expect(await stores[5].load("s1")).toHaveLength(1);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });

    test("a database from a newer schema is refused on first use, not misread", async () => {
      await new PostgresSessionStore(db.url).close();
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query("INSERT INTO patchgate_migrations (version) VALUES ($1)", [PG_SCHEMA_VERSION + 1]);
      await c.end();
      const s = new PostgresSessionStore(db.url);
      await expect(s.load("s1")).rejects.toThrow(`database schema version ${PG_SCHEMA_VERSION + 1} is newer`);
      await s.close();
    });

    test("openStore with a postgres:// DATABASE_URL opens PostgreSQL, not a file", async () => {
      const s = await openStore({ dataDir: "/nonexistent/never-created", databaseUrl: db.url.replace(/^postgres:/, "postgresql:") });
      expect(s).toBeInstanceOf(PostgresSessionStore);
      await s.append("s1", [created()], { phase: "queued" });
      expect((await s.list()).map((x) => x.id)).toEqual(["s1"]);
      await s.close();
    });
  });
}
