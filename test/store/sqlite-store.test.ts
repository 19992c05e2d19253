import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ConcurrentAppendError, SqliteSessionStore, openStore } from "../../src/store/index.js";
import { SCHEMA_VERSION } from "../../src/store/sqlite-schema.js";
import type { SessionEvent } from "../../src/session/events.js";
import { created, prepared, submitted, toExecuting } from "./session-events.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let dir: string;
let file: string;
let store: SqliteSessionStore;
const opened: SqliteSessionStore[] = [];

function open(): SqliteSessionStore {
  const s = SqliteSessionStore.open(file);
  opened.push(s);
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pg-store-"));
  file = join(dir, "test.sqlite");
  store = open();
});

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** An event JSON.stringify cannot serialise (BigInt throws). */
const unserialisable = { type: "user_message", content: 1n } as unknown as SessionEvent;

describe("append and load", () => {
  test("events come back in seq order from 0 with the time they were appended", async () => {
    const stored = await store.append("s1", [created(), prepared]);
    const more = await store.append("s1", [submitted()]);
    expect(stored.map((e) => e.seq)).toEqual([0, 1]);
    expect(more.map((e) => e.seq)).toEqual([2]);
    expect(stored[0].at).toMatch(ISO);
    const loaded = await store.load("s1");
    expect(loaded).toEqual([...stored, ...more]);
    expect(loaded.map(({ seq: _s, at: _a, ...e }) => e)).toEqual([created(), prepared, submitted()]);
  });

  test("an unknown session loads as no events", async () => {
    expect(await store.load("nope")).toEqual([]);
  });

  test("sessions do not see each other's events", async () => {
    await store.append("s1", [created("s1")]);
    await store.append("s2", [created("s2")]);
    expect((await store.load("s2")).map((e) => [e.seq, e.type === "session_created" && e.sessionId])).toEqual([[0, "s2"]]);
  });
});

describe("atomicity", () => {
  test("a batch with an event that fails to serialise leaves nothing, not even the session row", async () => {
    await expect(store.append("s1", [created(), unserialisable])).rejects.toThrow(TypeError);
    expect(await store.load("s1")).toEqual([]);
    expect(await store.list()).toEqual([]);
    expect((await store.append("s1", [created()]))[0].seq).toBe(0);
  });

  test("a failed batch on an existing session keeps its events and phase", async () => {
    await store.append("s1", [created(), prepared]);
    await expect(store.append("s1", [submitted(), unserialisable])).rejects.toThrow(TypeError);
    expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created", "workspace_prepared"]);
    expect((await store.list())[0].phase).toBe("planning");
  });
});

describe("optimistic concurrency", () => {
  test("expectedCount that differs throws ConcurrentAppendError and stores nothing", async () => {
    await store.append("s1", [created()], 0);
    const err = await store.append("s1", [prepared], 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrentAppendError);
    expect(err).toMatchObject({ sessionId: "s1", expected: 0, actual: 1 });
    expect(await store.load("s1")).toHaveLength(1);
    expect((await store.append("s1", [prepared], 1))[0].seq).toBe(1);
  });

  test("two connections to one file: the second writer with a stale count loses", async () => {
    const other = open();
    await store.append("s1", [created()]);
    const count = (await other.load("s1")).length;
    await store.append("s1", [prepared], count);
    await expect(other.append("s1", [prepared], count)).rejects.toBeInstanceOf(ConcurrentAppendError);
    expect((await other.load("s1")).map((e) => e.seq)).toEqual([0, 1]);
  });
});

describe("the inbox", () => {
  const d = (id: string, event = "issue_comment") => ({ id, event, payload: JSON.stringify({ action: "created", n: id }) });

  test("new the first time; pending until completed; done after — also after reopening the file", async () => {
    expect(await store.receiveDelivery(d("d-1"))).toBe("new");
    expect(await store.receiveDelivery(d("d-1"))).toBe("pending");
    expect(await store.receiveDelivery(d("d-2"))).toBe("new");
    await store.completeDelivery("d-2");
    await store.close();
    const reopened = open();
    expect(await reopened.receiveDelivery(d("d-1"))).toBe("pending");
    expect(await reopened.receiveDelivery(d("d-2"))).toBe("done");
    expect(await reopened.receiveDelivery(d("d-3", "pull_request_review"))).toBe("new");
  });

  test("what is not done survives a reopen with its payload, oldest first", async () => {
    for (const id of ["p-1", "p-2", "p-3"]) await store.receiveDelivery(d(id));
    await store.completeDelivery("p-2");
    await store.close();
    expect(await open().pendingDeliveries()).toEqual([d("p-1"), d("p-3")]);
  });

  test("a burst in one turn (one transaction) still answers each delivery, duplicates included", async () => {
    const answers = await Promise.all(["b-1", "b-2", "b-1", "b-3"].map((id) => store.receiveDelivery(d(id, "issues"))));
    expect(answers).toEqual(["new", "new", "pending", "new"]);
  });
});

describe("claims", () => {
  test("the first value stays; a later claim gets it back", async () => {
    expect(await store.claimEffect("@x", "claim:comment:1", "delivery-a")).toBe("delivery-a");
    expect(await store.claimEffect("@x", "claim:comment:1", "delivery-b")).toBe("delivery-a");
    expect(await store.claimEffect("@x", "claim:comment:2", "delivery-b")).toBe("delivery-b");
  });
});

describe("effects", () => {
  test("missing is null; put overwrites; keys are per session", async () => {
    expect(await store.getEffect("s1", "check_run")).toBeNull();
    await store.putEffect("s1", "check_run", "101");
    await store.putEffect("s1", "check_run", "102");
    await store.putEffect("s2", "check_run", "201");
    expect(await store.getEffect("s1", "check_run")).toBe("102");
    expect(await store.getEffect("s2", "check_run")).toBe("201");
    expect(await store.getEffect("s1", "pr")).toBeNull();
  });
});

describe("list and keys", () => {
  test("list gives each session's current phase, newest first", async () => {
    await store.append("s1", toExecuting());
    await store.append("s2", [created("s2")]);
    const list = await store.list();
    expect(list).toEqual([
      { id: "s2", key: null, phase: "queued", createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
      { id: "s1", key: null, phase: "executing", createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) },
    ]);
  });

  test("findByKey returns the newest session with that key", async () => {
    expect(await store.findByKey("acme/widgets#12")).toBeNull();
    await store.append("old", [created("old")]);
    await store.append("new", [created("new")]);
    await store.setKey("new", "acme/widgets#12");
    await store.setKey("old", "acme/widgets#12");
    expect(await store.findByKey("acme/widgets#12")).toBe("new");
    expect((await store.list()).map((s) => s.key)).toEqual(["acme/widgets#12", "acme/widgets#12"]);
  });

  test("setKey on a session with no events is refused", async () => {
    await expect(store.setKey("ghost", "acme/widgets#1")).rejects.toThrow("unknown session ghost");
    expect(await store.findByKey("acme/widgets#1")).toBeNull();
  });
});

describe("the file", () => {
  test("a reopened store sees events, phases, keys and effects", async () => {
    await store.append("s1", toExecuting());
    await store.setKey("s1", "acme/widgets#7");
    await store.putEffect("s1", "pr", "7");
    const before = { events: await store.load("s1"), list: await store.list() };
    await store.close();
    const reopened = open();
    expect(await reopened.load("s1")).toEqual(before.events);
    expect(await reopened.list()).toEqual(before.list);
    expect(await reopened.findByKey("acme/widgets#7")).toBe("s1");
    expect(await reopened.getEffect("s1", "pr")).toBe("7");
  });

  test("is in WAL mode at the current schema version", async () => {
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  test("a file from a newer schema is refused, not misread", async () => {
    await store.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => SqliteSessionStore.open(file)).toThrow(`database schema version ${SCHEMA_VERSION + 1} is newer`);
  });

  test("openStore creates the data dir and patchgate.sqlite in it", async () => {
    const dataDir = join(dir, "nested", "data");
    const s = openStore({ dataDir });
    await s.append("s1", [created()]);
    await s.close();
    expect(existsSync(join(dataDir, "patchgate.sqlite"))).toBe(true);
  });
});
