import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCaseSession, type CaseSession } from "../../src/eval/case-session.js";
import { buildFixtureRepo, type FixtureRepo } from "../../src/eval/fixture-repo.js";
import { replaySession } from "../../src/eval/replay/replay-session.js";
import type { StoredEvent } from "../../src/session/events.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { builtinCase, realSandbox, scriptedModel } from "../eval/run-helpers.js";

/**
 * One golden case (a read, a plan, an approved edit, a test run, finish) run through the real
 * runtime, then replayed from its stored events alone in a fresh clone: first as recorded, then with
 * one recorded model answer altered.
 */
const c = builtinCase("single-file-edit");
let scratch: string;
let sandbox: Sandbox;
let fixture: FixtureRepo;
let session: CaseSession;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "replay-case-"));
  sandbox = await realSandbox();
  fixture = await buildFixtureRepo(c, path.join(scratch, "origin"));
  session = await runCaseSession({ c, fixture, dir: scratch, llm: scriptedModel(c), sandbox, fallback: "stop" });
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const replay = (events: readonly StoredEvent[], name: string) =>
  replaySession({ events, source: fixture.path, dir: path.join(scratch, name), runtime: async () => ({ sandbox, repoConfig: fixture.repoConfig }) });

test("a replay from the record reaches the same published tree through the same decisions", async () => {
  const published = session.events.find((e) => e.type === "published");
  expect(published?.type === "published" && published.tree).toMatch(/^[0-9a-f]{40}$/);

  const r = await replay(session.events, "as-recorded");

  expect({ same: r.same, divergence: r.firstDivergence ?? null }).toEqual({ same: true, divergence: null });
  expect(r.treeId).toBe(published?.type === "published" ? published.tree : "");
  // The replay really ran the gates again: its own policy decisions, approval and test run.
  const types = new Set<string>(r.events.map((e) => e.type));
  expect(["policy_decided", "approval_requested", "approval_granted", "test_run", "published"].filter((t) => !types.has(t))).toEqual([]);
}, 300_000);

test("a replay with one recorded model answer altered names the first event that differs", async () => {
  const altered = session.events.map((e) =>
    e.type === "assistant_message" && e.toolCalls.some((t) => t.name === "edit_file")
      ? { ...e, toolCalls: e.toolCalls.map((t) => ({ ...t, arguments: t.arguments.replace("/ xs.length;", "/ xs.length + 0;") })) }
      : e,
  );
  const editSeq = altered.find((e) => e.type === "assistant_message" && e.toolCalls.some((t) => t.arguments.includes("xs.length + 0")))?.seq;
  expect(editSeq).toBeDefined();
  // The edit waits for a human: the batch's digest covers its arguments, so the request is the first to differ.
  const request = session.events.find((e) => e.type === "approval_requested" && e.seq > (editSeq ?? 0));

  const r = await replay(altered, "altered");

  expect(r.same).toBe(false);
  expect(r.firstDivergence).toMatchObject({ seq: request?.seq, what: "approval_requested differs" });
  expect(r.firstDivergence?.recorded).toContain(request?.type === "approval_requested" ? request.digest : "?");
}, 300_000);
