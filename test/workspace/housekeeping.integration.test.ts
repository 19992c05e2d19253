import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Phase } from "../../src/session/types.js";
import type { SessionSummary } from "../../src/store/types.js";
import { expired, sweepEndedSessions } from "../../src/workspace/housekeeping.js";
import { tempDir } from "../helpers/git-fixture.js";

/**
 * Housekeeping on real directories: what goes (ended past the retention, in every root, and what a
 * killed pass left half-removed) and what stays (running, parked, queued, recently ended, unknown,
 * in use by this process), whatever their age; a second pass finds nothing to do.
 */
const HOUR = 3_600_000;
const NOW = Date.parse("2026-12-01T12:00:00Z");
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR).toISOString();
const session = (id: string, phase: Phase, hoursAgo: number, key: string | null = `repo:1#${id}`): SessionSummary => ({
  id,
  key,
  phase,
  createdAt: at(hoursAgo + 1),
  updatedAt: at(hoursAgo),
});

let root: string;
let workspaces: string;
let caches: string;
beforeEach(() => {
  root = tempDir("pg-housekeeping-");
  workspaces = join(root, "workspaces");
  caches = join(root, "cache");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function populate(ids: string[]): void {
  for (const id of ids) {
    mkdirSync(join(workspaces, id, ".git"), { recursive: true });
    writeFileSync(join(workspaces, id, "file.txt"), id);
    mkdirSync(join(caches, id, "home"), { recursive: true });
  }
}

test("expired: only an ended session, and only once the retention has passed", () => {
  expect(expired(session("a", "done", 73), 72 * HOUR, NOW)).toBe(true);
  expect(expired(session("a", "done", 71), 72 * HOUR, NOW)).toBe(false);
  for (const phase of ["failed", "cancelled", "blocked"] as const) expect(expired(session("a", phase, 100), 72 * HOUR, NOW)).toBe(true);
  for (const phase of ["queued", "planning", "executing", "publishing", "awaiting_plan_approval", "awaiting_write_approval", "awaiting_answer"] as const) {
    expect(expired(session("a", phase, 10_000), 0, NOW)).toBe(false);
  }
});

test("a pass removes long-ended sessions' workspaces and caches, and nothing else", async () => {
  const sessions = [
    session("done-old", "done", 100),
    session("failed-old", "failed", 80),
    session("cancelled-new", "cancelled", 2),
    session("running-old", "executing", 500),
    session("parked-old", "awaiting_plan_approval", 500),
    session("queued-old", "queued", 500),
    session("retried-old", "failed", 500),
  ];
  populate([...sessions.map((s) => s.id), "unknown-dir"]);
  const store = { list: async () => sessions };
  const inUse = (key: string) => key === "repo:1#retried-old";
  const removed = await sweepEndedSessions(store, { roots: [workspaces, caches, join(root, "absent")], retentionMs: 72 * HOUR, now: NOW, inUse });
  expect(removed.sort()).toEqual(["done-old", "failed-old"]);
  const kept = ["cancelled-new", "parked-old", "queued-old", "retried-old", "running-old", "unknown-dir"];
  expect(readdirSync(workspaces).sort()).toEqual(kept);
  expect(readdirSync(caches).sort()).toEqual(kept);
  expect(await sweepEndedSessions(store, { roots: [workspaces, caches], retentionMs: 72 * HOUR, now: NOW, inUse })).toEqual([]);
});

test("what a pass killed half-way left behind goes on the next pass, and the rest is done then", async () => {
  const sessions = [session("a", "done", 100), session("b", "done", 100)];
  populate(["b"]);
  // `a` was renamed and partly deleted when the process died; `b` had not been reached.
  const half = join(workspaces, ".removing-a-1f2e3d");
  mkdirSync(join(half, "deep", "er"), { recursive: true });
  writeFileSync(join(half, "deep", "er", "left.txt"), "x");
  const removed = await sweepEndedSessions(
    { list: async () => sessions },
    { roots: [workspaces, caches], retentionMs: 72 * HOUR, now: NOW, inUse: () => false },
  );
  expect(removed).toEqual(["b"]);
  expect(readdirSync(workspaces)).toEqual([]);
  expect(existsSync(join(caches, "b"))).toBe(false);
});

test("a session a pass finds in use keeps every root's directory in that pass, even if its job ends meanwhile", async () => {
  // The stopped session's job is still unwinding when the pass reaches the workspaces, and gone by the caches.
  const sessions = [session("stopped", "cancelled", 100)];
  populate(["stopped"]);
  let asked = 0;
  const inUse = () => (asked += 1) === 1;
  const o = { roots: [workspaces, caches], retentionMs: 72 * HOUR, now: NOW, inUse };
  expect(await sweepEndedSessions({ list: async () => sessions }, o)).toEqual([]);
  expect([existsSync(join(workspaces, "stopped")), existsSync(join(caches, "stopped"))]).toEqual([true, true]);
  // The next pass takes both.
  expect(await sweepEndedSessions({ list: async () => sessions }, o)).toEqual(["stopped"]);
  expect([existsSync(join(workspaces, "stopped")), existsSync(join(caches, "stopped"))]).toEqual([false, false]);
});
