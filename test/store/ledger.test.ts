import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IllegalTransitionError, StaleApprovalError } from "../../src/session/errors.js";
import type { StoredEvent } from "../../src/session/events.js";
import type { SessionState } from "../../src/session/state.js";
import { ConcurrentAppendError } from "../../src/store/types.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { approved, created, prepared, submitted } from "../helpers/session-events.js";

let dir: string;
let store: SqliteSessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pg-ledger-"));
  store = SqliteSessionStore.open(join(dir, "ledger.sqlite"));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("create stores session_created and folds it", async () => {
  const ledger = await Ledger.create(store, created("s1"));
  expect(ledger.state).toMatchObject({ sessionId: "s1", phase: "queued", eventCount: 1 });
  expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created"]);
});

test("an illegal event throws IllegalTransitionError and nothing is stored", async () => {
  const ledger = await Ledger.create(store, created("s1"));
  await ledger.append(prepared);
  const err = await ledger.append(approved("h1")).catch((e: unknown) => e);
  expect(IllegalTransitionError.isInstance(err)).toBe(true);
  expect(err).toMatchObject({ eventType: "plan_approved", phase: "planning" });
  expect(await store.load("s1")).toHaveLength(2);
  expect(ledger.history).toHaveLength(2);
  expect(ledger.state.phase).toBe("planning");
});

test("a batch with one illegal event stores none of it", async () => {
  const ledger = await Ledger.create(store, created("s1"));
  await ledger.append(prepared);
  await expect(ledger.append(submitted("h1"), approved("stale"))).rejects.toBeInstanceOf(StaleApprovalError);
  expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created", "workspace_prepared"]);
  expect(ledger.state.phase).toBe("planning");
});

test("listeners get each stored event with the state after it", async () => {
  const seen: [StoredEvent, SessionState][] = [];
  const ledger = await Ledger.create(store, created("s1"), [(e, s) => seen.push([e, s])]);
  await ledger.append(prepared, submitted("h1"));
  expect(seen.map(([e, s]) => [e.seq, e.type, s.phase])).toEqual([
    [0, "session_created", "queued"],
    [1, "workspace_prepared", "planning"],
    [2, "plan_submitted", "awaiting_plan_approval"],
  ]);
  expect(seen[2][0]).toEqual((await store.load("s1"))[2]);
});

test("open folds the stored events; a second ledger on a stale view cannot append", async () => {
  const first = await Ledger.create(store, created("s1"));
  await first.append(prepared);
  const second = await Ledger.open(store, "s1");
  expect(second.state).toEqual(first.state);
  await first.append(submitted("h1"));
  await expect(second.append(submitted("h2"))).rejects.toBeInstanceOf(ConcurrentAppendError);
  expect((await Ledger.open(store, "s1")).state.planHash).toBe("h1");
});

test("opening an unknown session fails", async () => {
  await expect(Ledger.open(store, "ghost")).rejects.toThrow("unknown session ghost");
});

test("appends made while one is being stored wait for it, in the order they were made; a refused one does not stop the next", async () => {
  const ledger = await Ledger.create(store, created("s1"));
  // Not awaited in between: the baseline's record lands while the loop appends (src/agent/baseline.ts).
  const made = [ledger.append(prepared), ledger.append(approved("stale")), ledger.append(submitted("h1"))];
  const [first, refused, third] = await Promise.allSettled(made);
  expect(first.status).toBe("fulfilled");
  expect(refused.status === "rejected" && IllegalTransitionError.isInstance(refused.reason)).toBe(true);
  expect(third.status).toBe("fulfilled");
  expect((await store.load("s1")).map((e) => e.type)).toEqual(["session_created", "workspace_prepared", "plan_submitted"]);
  expect(ledger.state).toMatchObject({ phase: "awaiting_plan_approval", eventCount: 3 });
});
