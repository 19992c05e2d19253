import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { openStore } from "../../src/store/open-store.js";
import { SCHEMA_VERSION } from "../../src/store/sqlite-schema.js";
import { created } from "../helpers/session-events.js";
import { describeStoreContract } from "./store-contract.js";

/** The embedded default: the shared store contract on a real SQLite file, then what only a file has. */
describe("the store contract on SQLite", () => {
  describeStoreContract(async () => {
    const dir = mkdtempSync(join(tmpdir(), "sqlite-contract-"));
    return { open: () => SqliteSessionStore.open(join(dir, "test.sqlite")), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  });
});

describe("the file", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sqlite-store-"));
    file = join(dir, "test.sqlite");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("is in WAL mode at the current schema version", async () => {
    await SqliteSessionStore.open(file).close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  test("a file from a newer schema is refused, not misread", async () => {
    await SqliteSessionStore.open(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => SqliteSessionStore.open(file)).toThrow(`database schema version ${SCHEMA_VERSION + 1} is newer`);
  });

  test("openStore without a DATABASE_URL creates the data dir and patchgate.sqlite in it", async () => {
    const dataDir = join(dir, "nested", "data");
    const s = await openStore({ dataDir, databaseUrl: "" });
    expect(s).toBeInstanceOf(SqliteSessionStore);
    await s.append("s1", [created()], { phase: "queued" });
    await s.close();
    expect(existsSync(join(dataDir, "patchgate.sqlite"))).toBe(true);
  });

  test("a DATABASE_URL that is not PostgreSQL is refused by name, not taken for a file", async () => {
    await expect(openStore({ dataDir: dir, databaseUrl: "mysql://u:secret@h/db" })).rejects.toThrow(
      "DATABASE_URL must start with postgres:// or postgresql:// (got mysql:…)",
    );
  });
});
