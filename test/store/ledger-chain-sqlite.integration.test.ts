import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { verifyLedgerChain } from "../../src/store/ledger-chain.js";
import { migrate, SCHEMA_VERSION } from "../../src/store/sqlite-schema.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { runCli } from "../helpers/cli-process.js";
import { spawnScript } from "../helpers/script-process.js";
import { oldLedgers, OTHER, PUBLISHED, type OldLedgers } from "./old-ledger.js";

/**
 * A SQLite file written by the schema version before the chain: opened by this version it is chained
 * once, as found; `patchgate verify --session` then passes, and names the event a hand edit on disk
 * changed. A process killed inside the migration leaves the old file, and the next open migrates it.
 */
/** The version before the chain: the chain is the third step. */
const OLD_VERSION = 2;

let dataDir: string;
let file: string;
let old: OldLedgers;

/** The file as the previous version left it: its schema steps, then its rows, inserted as it inserted them. */
function writeOldFile(): void {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  migrate(db, { to: OLD_VERSION });
  const insert = db.prepare("INSERT INTO events (session_id, seq, type, at, body) VALUES (?, ?, ?, ?, ?)");
  const session = db.prepare(
    "INSERT INTO sessions (id, key, phase, created_at, updated_at) VALUES (?, NULL, 'done', ?, ?) ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at",
  );
  db.transaction(() => {
    for (const r of old.rows) {
      insert.run(r.sessionId, r.seq, r.type, r.at, r.body);
      session.run(r.sessionId, r.at, r.at);
    }
  })();
  db.close();
}

function raw<T>(query: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return query(db);
  } finally {
    db.close();
  }
}

const verify = (...args: string[]) => runCli(["verify", "--data-dir", dataDir, ...args], {});

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "pg-chain-"));
  file = join(dataDir, "patchgate.sqlite");
  old = oldLedgers();
  writeOldFile();
});

afterEach(() => {
  old.repo.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

test("an old file is chained once on open, its events as they were; appends extend the chain", async () => {
  expect(raw((db) => db.pragma("user_version", { simple: true }))).toBe(OLD_VERSION);
  const store = SqliteSessionStore.open(file);
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
  expect(raw((db) => db.pragma("user_version", { simple: true }))).toBe(SCHEMA_VERSION);
});

test("verify --session passes on the migrated ledger: chain, state, and the published commit in the session's clone", async () => {
  const r = await verify("--session", PUBLISHED);
  expect(r.stderr).toBe("");
  expect(r.stdout).toContain("ok   chain: 6 events, every link holds");
  expect(r.stdout).toContain(`ok   published: commit ${old.commit} on patchgate/pub, tree ${old.tree}`);
  expect(r.stdout).toContain("ok   repository: branch patchgate/pub in");
  expect(r.code).toBe(0);
});

test("one byte changed in an old event on disk: verify --session names that event, and exits 1", async () => {
  SqliteSessionStore.open(file).close(); // migrated
  const changed = raw((db) => db.prepare("UPDATE events SET body = replace(body, 'Fix it', 'Fix iT') WHERE session_id = ? AND seq = 2").run(PUBLISHED).changes);
  expect(changed).toBe(1);
  const r = await verify("--session", PUBLISHED);
  expect(r.stdout).toContain(
    "fail chain: broken at event 2 (plan_submitted): its content, seq or time does not match its hash: it was changed after it was stored",
  );
  expect(r.code).toBe(1);
  const json = JSON.parse((await verify("--session", PUBLISHED, "--json")).stdout) as { ok: boolean; findings: { check: string; status: string }[] };
  expect(json.ok).toBe(false);
  expect(json.findings[0]).toMatchObject({ check: "chain", status: "fail" });
});

test("an event deleted on disk is named at the gap; a head given from a receipt catches a ledger cut short", async () => {
  SqliteSessionStore.open(file).close();
  const head = raw((db) => (db.prepare("SELECT hash FROM events WHERE session_id = ? AND seq = 2").get(OTHER) as { hash: string }).hash);
  raw((db) => db.prepare("DELETE FROM events WHERE session_id = ? AND seq = 1").run(OTHER));
  expect((await verify("--session", OTHER)).stdout).toContain("fail chain: broken at event 2 (user_message): event 1 is missing before it");
  raw((db) => db.prepare("DELETE FROM events WHERE session_id = ? AND seq >= 1").run(OTHER));
  const cut = await verify("--session", OTHER, "--head", head);
  expect(cut.stdout).toContain("ok   chain: 1 events");
  expect(cut.stdout).toContain(`fail head: the given head ${head} is not the ledger's`);
  expect(cut.code).toBe(1);
});

test("the branch moved off the published commit in the clone: the repository check fails", async () => {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: old.repo.dir, stdio: "pipe" });
  git("checkout", "-q", "--orphan", "elsewhere");
  git("-c", "user.name=M", "-c", "user.email=m@example.invalid", "commit", "-q", "--allow-empty", "-m", "unrelated");
  git("branch", "-f", "patchgate/pub", "elsewhere");
  const r = await verify("--session", PUBLISHED);
  expect(r.stdout).toContain("ok   chain");
  expect(r.stdout).toContain(`fail repository: branch patchgate/pub in ${old.repo.dir} no longer contains the published commit ${old.commit}`);
  expect(r.code).toBe(1);
});

test("kill -9 inside the migration: the file is as it was, and the next open migrates it exactly once", async () => {
  const migrating = await spawnScript("test/fakes/migrating-store.ts", { MIGRATING_STORE: `sqlite ${file}` });
  await migrating.printed(`chained ${OTHER}`);
  await migrating.kill9();
  expect(migrating.output()).not.toContain("migrated");
  // Killed before its commit: the old version, without the chain's columns.
  expect(raw((db) => db.pragma("user_version", { simple: true }))).toBe(OLD_VERSION);
  expect(raw((db) => (db.pragma("table_info(events)") as { name: string }[]).map((c) => c.name))).not.toContain("hash");
  const store = SqliteSessionStore.open(file);
  try {
    for (const id of [PUBLISHED, OTHER]) expect(verifyLedgerChain(id, await store.loadChain(id))).toMatchObject({ ok: true });
  } finally {
    await store.close();
  }
  const hashes = () => raw((db) => db.prepare("SELECT session_id, seq, hash FROM events ORDER BY session_id, seq").all());
  const once = hashes();
  SqliteSessionStore.open(file).close();
  expect(hashes()).toEqual(once);
  expect(raw((db) => db.pragma("user_version", { simple: true }))).toBe(SCHEMA_VERSION);
});
