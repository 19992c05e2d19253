import { parseCommand } from "../../../src/github/inbound/command.js";
import type { Intent, Thread } from "../../../src/github/inbound/intent.js";
import { actsOnSession, addressesSession, route, type SessionCommand } from "../../../src/github/session-work/route.js";
import { emptyState } from "../../../src/session/empty-state.js";
import type { SessionState } from "../../../src/session/state.js";
import type { Phase } from "../../../src/session/types.js";

/** Which human word is accepted in which phase: every intent against no session and every phase. */
const ISSUE: Thread = { number: 7, isPullRequest: false, title: "Parser drops tabs", body: "Tabs vanish." };
const PR: Thread = { number: 9, isPullRequest: true, title: "Patchgate: parser", body: "Patchgate's plan" };
const AT = "2026-01-02T03:04:05Z";

const command = (body: string, thread = ISSUE): Intent => ({ kind: "command", command: parseCommand(body)!, thread, commentId: 41, at: AT });
const review = (state: "approved" | "changes_requested" | "commented", body = ""): Intent => ({
  kind: "review",
  state,
  body,
  commitId: "c0ffee",
  reviewId: 5,
  thread: PR,
  at: AT,
});
const label = (name: "agent" | "agent:plan-approved" | "agent:writes-approved"): Intent => ({ kind: "label", label: name, thread: PR, headSha: null, at: AT });

function session(phase: Phase, blockedWorkPushed = false): SessionState {
  const s = emptyState();
  return {
    ...s,
    phase,
    task: { title: "Parser drops tabs", body: "Tabs vanish.", source: { kind: "github", repo: "o/r", issueNumber: 7 } },
    blocked:
      phase === "blocked"
        ? { reason: "reported_by_agent", message: "", work: blockedWorkPushed ? { pushed: true, branch: "b", commit: "c", failing: [] } : null }
        : null,
  } as SessionState;
}

/** A command in a word: its kind, and what tells two commands of a kind apart. */
function word(c: SessionCommand): string {
  switch (c.kind) {
    case "approvePlan":
      return `plan/${c.via}`;
    case "decideBatch":
      return c.deny !== undefined ? "deny" : c.executableConfig ? "batch+exec" : "batch";
    case "decideIntegrity":
      return c.deny !== undefined ? "integrity-deny" : c.via === "comment" ? "integrity" : `integrity/${c.via}`;
    case "approveAllWrites":
      return c.resume ? "allWrites+resume" : "allWrites";
    case "revise":
      return `revise/${c.via}`;
    case "tell":
      return `tell:${c.tag}`;
    case "start":
      return c.start.followUp ? "start+branch" : "start";
    case "reviewFollowUp":
      return "followUp";
    default:
      return c.kind;
  }
}

const PHASES: (Phase | null)[] = [
  null,
  "queued",
  "planning",
  "awaiting_plan_approval",
  "awaiting_answer",
  "executing",
  "awaiting_write_approval",
  "awaiting_integrity_approval",
  "publishing",
  "done",
  "failed",
  "cancelled",
  "blocked",
];

// Columns: none, queued, planning, plan?, answer?, executing, writes?, integrity?, publishing, done, failed, cancelled, blocked
const TABLE: [string, Intent, string[]][] = [
  [
    "issue opened with /agent",
    { kind: "issue_opened", command: { kind: "start", task: null }, thread: ISSUE, at: AT },
    ["start", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "start", "start", "start", "start"],
  ],
  ["label `agent`", label("agent"), ["start", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "start", "start", "start", "start"]],
  [
    "/agent fix this (issue)",
    command("/agent fix this"),
    ["start", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "start", "start", "start", "start"],
  ],
  [
    "/agent <task> (issue)",
    command("/agent fix the parser"),
    ["start", "busy", "busy", "busy", "answer", "busy", "busy", "busy", "busy", "start", "start", "start", "start"],
  ],
  [
    "/agent fix this (PR)",
    command("/agent fix this", PR),
    ["start", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "busy", "start+branch", "start", "start", "start"],
  ],
  [
    "/agent approve",
    command("/agent approve"),
    [
      "status",
      "tell:nothing",
      "tell:nothing",
      "plan/comment",
      "tell:nothing",
      "tell:nothing",
      "batch",
      "integrity",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
    ],
  ],
  [
    "/agent approve executable-config",
    command("/agent approve executable-config"),
    [
      "status",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "batch+exec",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
    ],
  ],
  [
    "/agent deny",
    command("/agent deny too broad"),
    [
      "status",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "deny",
      "integrity-deny",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
    ],
  ],
  [
    "/agent revise",
    command("/agent revise smaller"),
    [
      "status",
      "tell:nothing",
      "revise/comment",
      "revise/comment",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
      "tell:nothing",
    ],
  ],
  [
    "/agent approve integrity",
    command("/agent approve integrity"),
    ["status", ...Array<string>(6).fill("tell:nothing"), "integrity", ...Array<string>(5).fill("tell:nothing")],
  ],
  ["/agent stop", command("/agent stop"), Array(13).fill("stop")],
  ["/agent status", command("/agent status"), Array(13).fill("status")],
  ["/agent retry", command("/agent retry"), Array(13).fill("retry")],
  ["/agent (help)", command("/agent"), Array(13).fill("tell:help")],
  [
    "a reply without /agent",
    { kind: "reply", body: "Use tabs.", thread: ISSUE, commentId: 42, at: AT },
    ["ignore", "ignore", "ignore", "ignore", "answer", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore"],
  ],
  [
    "the Approve plan button",
    { kind: "button", identifier: "approve:0123456789ab", checkRunId: 3, at: AT },
    ["ignore", ...Array<string>(12).fill("plan/check_run")],
  ],
  [
    "the Approve tests button (bound to its request: a stale press is answered when applied)",
    { kind: "button", identifier: "integrity:0123456789", checkRunId: 3, at: AT },
    ["ignore", ...Array<string>(12).fill("integrity/check_run")],
  ],
  [
    "review: approve",
    review("approved"),
    ["ignore", "ignore", "ignore", "plan/review", "ignore", "ignore", "ignore", "integrity/review", "ignore", "ignore", "ignore", "ignore", "ignore"],
  ],
  [
    "review: request changes",
    review("changes_requested", "Smaller, please."),
    ["ignore", "ignore", "revise/review", "revise/review", "ignore", "ignore", "ignore", "ignore", "ignore", "followUp", "ignore", "ignore", "ignore"],
  ],
  [
    "review: request changes, no words",
    review("changes_requested"),
    ["ignore", "ignore", "tell:revise", "tell:revise", "ignore", "ignore", "ignore", "ignore", "ignore", "followUp", "ignore", "ignore", "ignore"],
  ],
  [
    "review: comment",
    review("commented", "Nice."),
    ["ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "followUp", "ignore", "ignore", "ignore"],
  ],
  ["a review's line comment", { kind: "line_comment", reviewId: 5, commentId: 6, body: "here", thread: PR, at: AT }, Array(13).fill("ignore")],
  [
    "label `agent:plan-approved`",
    label("agent:plan-approved"),
    ["ignore", "ignore", "ignore", "plan/label", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore", "ignore"],
  ],
  [
    "label `agent:writes-approved`",
    label("agent:writes-approved"),
    [
      "ignore",
      "allWrites",
      "allWrites",
      "allWrites",
      "allWrites",
      "allWrites",
      "allWrites+resume",
      "allWrites",
      "allWrites",
      "ignore",
      "ignore",
      "ignore",
      "ignore",
    ],
  ],
];

describe("route: intent × phase", () => {
  test.each(TABLE)("%s", (_name, intent, expected) => {
    expect(PHASES.map((p) => word(route(intent, p === null ? null : session(p))))).toEqual(expected);
  });

  test("every ignored delivery says why", () => {
    for (const [name, intent] of TABLE)
      for (const p of PHASES) {
        const c = route(intent, p === null ? null : session(p));
        if (c.kind === "ignore") expect({ name, p, why: c.why.length > 0 }).toEqual({ name, p, why: true });
      }
  });
});

describe("route: what a command carries", () => {
  test("a start on a finished session's PR is a follow-up named after the PR; on an unfinished one, the issue's task", () => {
    expect(route(command("/agent fix the lexer too", PR), session("done"))).toEqual({
      kind: "start",
      start: { title: "Follow-up on #9", body: "", instruction: "fix the lexer too", followUp: true },
    });
    expect(route(command("/agent fix this", PR), session("failed"))).toEqual({
      kind: "start",
      start: { title: "Parser drops tabs", body: "Tabs vanish.", instruction: null, followUp: false },
    });
  });

  test("a blocked session that pushed its work is continued from the branch, one that did not is started afresh", () => {
    expect(route(command("/agent fix this", PR), session("blocked", true))).toMatchObject({ kind: "start", start: { followUp: true } });
    expect(route(command("/agent fix this", PR), session("blocked", false))).toMatchObject({ kind: "start", start: { followUp: false } });
  });

  test("an approval names what it approves and how; the comment's stamp and id travel with it", () => {
    expect(route(command("/agent approve 0123abcd"), session("awaiting_plan_approval"))).toEqual({
      kind: "approvePlan",
      via: "comment",
      hash: { by: "comment", ref: "0123abcd", act: { at: AT, commentId: 41 } },
    });
    expect(route(review("approved"), session("awaiting_plan_approval"))).toEqual({
      kind: "approvePlan",
      via: "review",
      hash: { by: "commit", commitId: "c0ffee" },
    });
    expect(route(label("agent:plan-approved"), session("awaiting_plan_approval"))).toEqual({
      kind: "approvePlan",
      via: "label",
      hash: { by: "label", at: AT },
    });
    expect(route(command("/agent deny too broad"), session("awaiting_write_approval"))).toEqual({
      kind: "decideBatch",
      digest: { ref: null, act: { at: AT, commentId: 41 } },
      deny: "too broad",
      executableConfig: false,
    });
  });

  test("`approve executable-config` while a plan waits points to `/agent approve`", () => {
    const c = route(command("/agent approve executable-config"), session("awaiting_plan_approval"));
    expect(c).toMatchObject({ kind: "tell", tag: "nothing" });
    expect(c.kind === "tell" && c.text).toContain("To approve the plan, use `/agent approve`.");
  });

  test("a command Patchgate did not understand gets the help text with the reason", () => {
    const c = route(command("/agent approve the plan"), session("awaiting_plan_approval"));
    expect(c.kind === "tell" && c.text.split("\n")[0]).toBe("I did not understand that (`approve` takes no text (optionally the short hash it approves)).");
  });
});

describe("what is conversation, and what a pending stop holds back", () => {
  const reply = (thread: Thread): Intent => ({ kind: "reply", body: "Use tabs.", thread, commentId: 42, at: AT });
  test("a reply is addressed to the session only while a question waits, and only in the issue that asked", () => {
    expect(addressesSession(reply(ISSUE), session("awaiting_answer"))).toBe(true);
    expect(addressesSession(reply(PR), session("awaiting_answer"))).toBe(false);
    expect(addressesSession(reply(ISSUE), session("planning"))).toBe(false);
    expect(addressesSession(reply(ISSUE), null)).toBe(false);
  });
  test("a commenting review matters only on a finished session; commands always do", () => {
    expect(addressesSession(review("commented"), session("done"))).toBe(true);
    expect(addressesSession(review("commented"), session("awaiting_plan_approval"))).toBe(false);
    expect(addressesSession(command("/agent approve"), null)).toBe(true);
    expect(addressesSession(review("approved"), null)).toBe(true);
  });
  test("help, status and stop are not held back by a pending stop; everything else is", () => {
    expect(["/agent", "/agent status", "/agent stop"].map((b) => actsOnSession(command(b)))).toEqual([false, false, false]);
    expect(["/agent approve", "/agent retry", "/agent fix this"].map((b) => actsOnSession(command(b)))).toEqual([true, true, true]);
    expect(actsOnSession(label("agent:writes-approved"))).toBe(true);
  });
});
