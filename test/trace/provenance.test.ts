import { createTwoFilesPatch } from "diff";
import type { SessionEvent } from "../../src/session/events.js";
import { provenance } from "../../src/trace/report/provenance.js";
import { buildView } from "../../src/trace/report/session-view.js";
import { hex, okResult, StoryLedger } from "./fixtures/story-ledger.js";

/** Which call wrote each added line of the final diff, judged from the diffs each call recorded. */
const BASE = { "src/a.js": "one\ntwo\nthree\n" };

function patch(files: Record<string, string>): string {
  return Object.entries(files)
    .map(([path, after]) =>
      createTwoFilesPatch(path in BASE ? `a/${path}` : "/dev/null", `b/${path}`, BASE[path as keyof typeof BASE] ?? "", after, "", "", { context: 0 }),
    )
    .join("");
}

const diff = (files: Record<string, string>): SessionEvent => ({
  type: "diff_updated",
  diff: { patch: patch(files), stat: "", filesChanged: Object.keys(files).length, insertions: 0, deletions: 0 },
});

function session(): StoryLedger {
  const s = new StoryLedger("sess-prov").start().read().plan(hex("p", 64));
  s.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
  // Step 3: an edit allowed by the writes-approved label; step 4: a new file allowed by a rule;
  // step 5: the first file edited again; step 6: a test run that leaves a file behind.
  s.add({ type: "writes_auto_approved", by: { login: "alice", via: "label" } });
  s.step(null, [
    {
      tool: "edit_file",
      args: { path: "src/a.js" },
      decision: "allow",
      rule: "session:writes-approved",
      subject: "src/a.js",
      facts: [diff({ "src/a.js": "one\nTWO\nthree\n" })],
      result: okResult({ edits_applied: 1 }),
    },
  ]);
  s.step(null, [
    {
      tool: "write_file",
      args: { path: "src/new.js" },
      decision: "allow",
      rule: "allow:repo-write",
      subject: "src/new.js",
      facts: [diff({ "src/a.js": "one\nTWO\nthree\n", "src/new.js": "x\ny\n" })],
      result: okResult({ bytes: 4 }),
    },
  ]);
  s.step(null, [
    {
      tool: "edit_file",
      args: { path: "src/a.js" },
      decision: "allow",
      rule: "session:writes-approved",
      subject: "src/a.js",
      facts: [diff({ "src/a.js": "one\nTWO\nthree\nfour\n", "src/new.js": "x\ny\n" })],
      result: okResult({ edits_applied: 1 }),
    },
  ]);
  s.step(null, [
    {
      tool: "run_tests",
      args: {},
      decision: "allow",
      rule: "allow:test-command",
      subject: "sh test.sh",
      facts: [diff({ "src/a.js": "one\nTWO\nthree\nfour\n", "src/new.js": "x\ny\n", "cache.txt": "left behind\n" })],
      result: okResult({ passed: true }),
    },
  ]);
  return s;
}

describe("provenance", () => {
  const s = session();
  const final = diff({ "src/a.js": "one\nTWO\nthree\nfour\n", "src/new.js": "x\ny\n", "cache.txt": "left behind\n" });
  s.step(null, [
    {
      tool: "finish",
      args: { summary: "s" },
      decision: "allow",
      facts: [final, { type: "finish_accepted", summary: "s", treeHash: hex("t") }],
      result: okResult({ accepted: true }),
    },
  ]);
  s.add({ type: "published", branch: "b", commit: hex("c"), tree: hex("t") });

  test("each added line is the last call's that added it; ranges join consecutive lines of one call", () => {
    const p = provenance(buildView(s.state, s.events));
    expect(p.annotations.map((a) => `${a.path}:${a.start_line}-${a.end_line} ${a.message}`)).toEqual([
      "src/a.js:2-2 written at step 3 by edit_file, allowed: all writes approved by label",
      "src/a.js:4-4 written at step 5 by edit_file, allowed: all writes approved by label",
      "src/new.js:1-2 written at step 4 by write_file, allowed by allow:repo-write",
      "cache.txt:1-1 written at step 6 by run_tests, allowed by allow:test-command",
    ]);
    expect(new Set(p.annotations.map((a) => a.annotation_level))).toEqual(new Set(["notice"]));
  });

  test("over the cap, one call's ranges in a file become one annotation listing its lines; the rest is counted", () => {
    const p = provenance(buildView(s.state, s.events), 2);
    expect(p.ranges).toBe(4);
    expect(p.annotations).toHaveLength(2);
    expect(p.omitted).toBe(2);
    expect(p.annotations[1].message).toMatch(
      /^written at step 5 by edit_file, allowed: all writes approved by label \(changed lines 4\)\n\n2 more annotations left out/,
    );
  });

  test("a line no call's diff showed before finish is not credited to a tool", () => {
    const t = new StoryLedger("sess-unattributed").start().read().plan(hex("p", 64));
    t.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
    t.step(null, [
      {
        tool: "finish",
        args: { summary: "s" },
        decision: "allow",
        facts: [diff({ "src/a.js": "zero\none\ntwo\nthree\n" }), { type: "finish_accepted", summary: "s", treeHash: hex("t") }],
        result: okResult({ accepted: true }),
      },
    ]);
    t.add({ type: "published", branch: "b", commit: hex("c"), tree: hex("t") });
    expect(provenance(buildView(t.state, t.events)).annotations.map((a) => a.message)).toEqual([
      "not written by a file tool: first seen when finish was accepted at step 3",
    ]);
  });
});
