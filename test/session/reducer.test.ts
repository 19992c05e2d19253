import { approvalMessage, revisionMessage, taskMessage, toolResultMessage } from "../../src/session/conversation.js";
import { StaleApprovalError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import { fold } from "../../src/session/reducer.js";
import type { Todo } from "../../src/session/types.js";
import {
  alice,
  approved,
  created,
  llmCalled,
  pendingCall,
  plan,
  prepared,
  requested,
  asked,
  submitted,
  toExecuting,
  toolResult,
} from "../helpers/session-events.js";
import { expectIllegal, failed, finish, planning, rejection } from "./reducer-helpers.js";

const granted = (digest = "d1"): SessionEvent => ({ type: "approval_granted", digest, by: alice });
const denied = (digest = "d1"): SessionEvent => ({ type: "approval_denied", digest, by: alice, reason: "too broad" });
const settled = (digest = "d1"): SessionEvent => ({ type: "approval_settled", digest });
const published: SessionEvent = { type: "published", branch: "patchgate/issue-1", commit: "c".repeat(40) };
const cancelled: SessionEvent = { type: "session_cancelled", by: "alice" };
const say = (content: string): SessionEvent => ({ type: "user_message", content });
const todo = (id: string, status: Todo["status"]): Todo => ({ id, content: `todo ${id}`, status });

describe("creation", () => {
  test("the first event must be session_created", () => {
    expectIllegal([], prepared, "the first event must be session_created");
  });

  test("session_created twice is refused", () => {
    expectIllegal([created()], created(), "session already exists");
  });

  test("session_created starts queued in plan mode with the task as the first message", () => {
    const s = fold([created("s9")]);
    expect([s.sessionId, s.phase, s.mode, s.eventCount]).toEqual(["s9", "queued", "plan", 1]);
    expect(s.conversation).toEqual([taskMessage(created().task)]);
  });
});

describe("workspace", () => {
  test("workspace_prepared moves queued to planning and records the base", () => {
    const s = fold(planning());
    expect([s.phase, s.baseCommit, s.workdir]).toEqual(["planning", prepared.baseCommit, "/ws"]);
  });

  test("workspace_prepared later (a rebuild) keeps the phase", () => {
    expect(fold([...toExecuting(), { ...prepared, workdir: "/ws2" }])).toMatchObject({ phase: "executing", workdir: "/ws2" });
  });
});

describe("repository instructions", () => {
  const loaded: SessionEvent = {
    type: "instructions_loaded",
    path: "AGENTS.md",
    commit: "c".repeat(40),
    bytes: 9,
    text: "use tabs",
    truncated: false,
    candidates: ["AGENTS.md"],
  };

  test("instructions_loaded joins the first message as guidance, after the task", () => {
    const s = fold([...planning(), loaded]);
    expect(s.instructions).toMatchObject({ path: "AGENTS.md", text: "use tabs" });
    expect(s.conversation).toHaveLength(1);
    expect(s.conversation[0].content).toBe(taskMessage(created().task, s.instructions!).content);
    expect(s.conversation[0].content).toMatch(/<\/task>[\s\S]*<repository-guidance path="AGENTS.md">\nuse tabs\n<\/repository-guidance>$/);
  });

  test("loaded once, and never after a model call (the prompt's first message would change under the model)", () => {
    expectIllegal([...planning(), loaded], loaded, "loaded once");
    expectIllegal([...planning(), llmCalled({}, 0)], loaded, "before the first model call");
  });
});

describe("plan gate", () => {
  test("plan_updated sets the plan while planning", () => {
    expect(fold([...planning(), { type: "plan_updated", plan }]).plan).toEqual(plan);
  });

  test("plan_updated outside planning is refused", () => {
    expectIllegal(toExecuting(), { type: "plan_updated", plan }, "allowed only in planning");
  });

  test("plan_submitted waits for approval with the hash", () => {
    expect(fold([...planning(), submitted("h7")])).toMatchObject({ phase: "awaiting_plan_approval", planHash: "h7", plan });
  });

  test("plan_submitted before the workspace exists is refused", () => {
    expectIllegal([created()], submitted(), "allowed only in planning");
  });

  test("approving with nothing submitted is refused", () => {
    expectIllegal(planning(), approved(), "allowed only in awaiting_plan_approval");
  });

  test("approving a stale plan hash throws StaleApprovalError", () => {
    const err = rejection([...planning(), submitted("h2")], approved("h1"));
    expect(err).toBeInstanceOf(StaleApprovalError);
    expect(err).toMatchObject({ expected: "h2", got: "h1" });
  });

  test("plan_approved switches to execute mode and tells the model", () => {
    const s = fold(toExecuting());
    expect([s.phase, s.mode, s.approvedPlanHash]).toEqual(["executing", "execute", "h1"]);
    expect(s.conversation.at(-1)).toEqual(approvalMessage("alice"));
  });

  test("a revision request goes back to planning with the feedback", () => {
    const s = fold([...planning(), submitted(), { type: "plan_revision_requested", feedback: "smaller", by: alice }]);
    expect([s.phase, s.mode]).toEqual(["planning", "plan"]);
    expect(s.conversation.at(-1)).toEqual(revisionMessage("smaller", "alice"));
  });

  test("a revision request after approval is refused", () => {
    expectIllegal(toExecuting(), { type: "plan_revision_requested", feedback: "x", by: alice }, "allowed only in");
  });
});

describe("todos", () => {
  test("one todo in progress is accepted", () => {
    const todos = [todo("1", "completed"), todo("2", "in_progress"), todo("3", "pending")];
    expect(fold([...planning(), { type: "todos_updated", todos }]).todos).toEqual(todos);
  });

  test("two todos in progress are refused", () => {
    const todos = [todo("1", "in_progress"), todo("2", "in_progress")];
    expectIllegal(planning(), { type: "todos_updated", todos }, "2 todos in_progress; at most one");
  });
});

describe("write approvals", () => {
  test("approval_requested parks the session with the batch pending", () => {
    const s = fold([...toExecuting(), ...asked("d1", ["c1", "c2"])]);
    expect(s.phase).toBe("awaiting_write_approval");
    expect(s.pending).toEqual({ digest: "d1", calls: [pendingCall("c1"), pendingCall("c2")], status: "pending", settledCallIds: [] });
  });

  test("approval_requested while planning is refused", () => {
    expectIllegal(planning(), requested(), "allowed only in executing");
  });

  test("a second batch while a decided one is unsettled is refused", () => {
    expectIllegal([...toExecuting(), ...asked("d1"), granted("d1")], requested("d2"), "a batch is already pending");
  });

  test("granting with nothing pending is refused", () => {
    expectIllegal(toExecuting(), granted(), "allowed only in awaiting_write_approval");
  });

  test("granting a stale digest throws StaleApprovalError", () => {
    const err = rejection([...toExecuting(), ...asked("d2")], granted("d1"));
    expect(err).toBeInstanceOf(StaleApprovalError);
    expect(err).toMatchObject({ expected: "d2", got: "d1" });
  });

  test("approval_granted resumes executing with the batch approved", () => {
    const s = fold([...toExecuting(), ...asked(), granted()]);
    expect([s.phase, s.pending?.status, s.pending?.denyReason]).toEqual(["executing", "approved", undefined]);
  });

  test("approval_denied resumes executing with the reason", () => {
    const s = fold([...toExecuting(), ...asked(), denied()]);
    expect([s.phase, s.pending?.status, s.pending?.denyReason]).toEqual(["executing", "denied", "too broad"]);
  });

  test("tool results of batch calls are recorded as settled; others are not", () => {
    const s = fold([...toExecuting(), ...asked("d1", ["c1", "c2"], ["other"]), granted(), toolResult("c1"), toolResult("other")]);
    expect(s.pending?.settledCallIds).toEqual(["c1"]);
  });

  test("approval_settled closes a decided batch", () => {
    expect(fold([...toExecuting(), ...asked(), granted(), toolResult("c1"), settled()]).pending).toBeNull();
  });

  test("approval_settled before a decision is refused", () => {
    expectIllegal([...toExecuting(), ...asked()], settled(), "no decided batch with that digest");
  });

  test("approval_settled with another digest is refused", () => {
    expectIllegal([...toExecuting(), ...asked("d1"), granted("d1")], settled("d2"), "no decided batch with that digest");
  });

  test("writes_auto_approved sets the flag", () => {
    expect(fold([...planning(), { type: "writes_auto_approved", by: { login: "alice", via: "label" } }]).autoApproveWrites).toBe(true);
  });
});

describe("finish and publish", () => {
  test("finish outside executing is refused", () => {
    expectIllegal(planning(), finish, "allowed only in executing");
  });

  test("finish while writes await approval is refused", () => {
    expectIllegal([...toExecuting(), ...asked()], finish, "allowed only in executing");
  });

  test("finish_accepted moves to publishing with the summary", () => {
    expect(fold([...toExecuting(), finish])).toMatchObject({ phase: "publishing", finishSummary: "Fixed the loop" });
  });

  test("published ends the session as done", () => {
    expect(fold([...toExecuting(), finish, published])).toMatchObject({
      phase: "done",
      published: { branch: "patchgate/issue-1", commit: "c".repeat(40) },
    });
  });

  test("published before finish is refused", () => {
    expectIllegal(toExecuting(), published, "allowed only in publishing");
  });
});

describe("terminal phases", () => {
  test("session_failed from any live phase records the reason", () => {
    expect(fold([...planning(), submitted(), failed])).toMatchObject({
      phase: "failed",
      failure: { reason: "llm_error", message: "HTTP 500" },
    });
  });

  test("session_cancelled from a parked session", () => {
    expect(fold([...toExecuting(), ...asked(), cancelled]).phase).toBe("cancelled");
  });

  test.each([
    ["done", [...toExecuting(), finish, published]],
    ["failed", [...planning(), failed]],
    ["cancelled", [...planning(), cancelled]],
  ])("no event is accepted after %s", (_phase, ended) => {
    expectIllegal(ended, say("hello?"), "session has ended");
    expectIllegal(ended, { type: "resumed", trigger: "retry" }, "session has ended");
    expectIllegal(ended, cancelled, "session has ended");
    expectIllegal(ended, llmCalled({}, 0), "session has ended");
  });
});

describe("conversation", () => {
  test("is task, assistant turns, tool results, approvals and user messages in order", () => {
    const call = { id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' };
    const s = fold([
      ...planning(),
      { type: "assistant_message", content: null, toolCalls: [call] },
      toolResult("c1", "text"),
      submitted(),
      approved(),
      say("also update the docs"),
    ]);
    expect(s.conversation).toEqual([
      taskMessage(created().task),
      { role: "assistant", content: null, toolCalls: [call] },
      toolResultMessage("c1", { ok: true, data: "text" }),
      approvalMessage("alice"),
      { role: "user", content: "also update the docs" },
    ]);
    expect(s.latestToolResult).toEqual({ callId: "c1", tool: "write_file", result: { ok: true, data: "text" } });
  });

  test("assistant_message while waiting for plan approval is refused", () => {
    expectIllegal([...planning(), submitted()], { type: "assistant_message", content: "hi", toolCalls: [] }, "allowed only in planning, executing");
  });

  test("context_compacted records the cut and summary", () => {
    const s = fold([...planning(), say("a"), say("b"), { type: "context_compacted", cutIndex: 2, summary: "earlier: a" }]);
    expect(s.memory).toEqual({ cutIndex: 2, summary: "earlier: a" });
  });

  test("a cut beyond the conversation is refused", () => {
    expectIllegal(planning(), { type: "context_compacted", cutIndex: 2, summary: "" }, "cut 2 outside the conversation");
  });

  test("a cut before the previous cut is refused", () => {
    const before = [...planning(), say("a"), say("b"), { type: "context_compacted", cutIndex: 2, summary: "" } as SessionEvent];
    expectIllegal(before, { type: "context_compacted", cutIndex: 1, summary: "" }, "cut 1 outside the conversation");
  });
});
