import { IllegalTransitionError, StaleApprovalError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";
import { answerMessage, approvalMessage, rebasedMessage, revisionMessage, taskMessage, toolResultMessage } from "./conversation.js";
import { closeCall, markStarted, openTurn, requireNoOpenCalls, requireOpen } from "./open-calls.js";
import { emptyState } from "./empty-state.js";
import { requireLive, requirePhase } from "./phase-guards.js";
import { withOurs } from "./lease-ours.js";
import { reopenPhase } from "./reopen-phase.js";
import { addCall } from "./usage.js";
import { reduceIntegrity } from "./integrity-transitions.js";
import { reduceGrant } from "./grant-transitions.js";
import { executableConfigApproval } from "./executable-config-writes.js";
import { reduceFileChange } from "./file-transitions.js";
import { requireAutomationMayApprove } from "./automation-approval.js";
import { reduceBudget } from "./budget-transitions.js";

/** Pure transition: returns a new state or throws a typed error; never mutates `s`. */
export function reduce(s: SessionState, e: SessionEvent): SessionState {
  if (e.type !== "session_created" && s.eventCount === 0) {
    throw new IllegalTransitionError(e.type, s.phase, "the first event must be session_created");
  }
  const next = { ...s, eventCount: s.eventCount + 1 };
  switch (e.type) {
    case "session_created":
      if (s.eventCount !== 0) throw new IllegalTransitionError(e.type, s.phase, "session already exists");
      return {
        ...next,
        sessionId: e.sessionId,
        task: e.task,
        model: e.model,
        settings: e.settings,
        repoConfig: e.repoConfig ?? null,
        conversation: [taskMessage(e.task)],
      };
    case "instructions_loaded": {
      requireLive(s, e);
      // Part of the first message, so it is pinned like the task; rewritten only before any model call.
      if (s.step !== 0 || s.instructions !== null)
        throw new IllegalTransitionError(e.type, s.phase, "instructions are loaded once, before the first model call");
      const { type: _type, ...instructions } = e;
      return { ...next, instructions, conversation: [taskMessage(s.task, instructions), ...s.conversation.slice(1)] };
    }
    case "workspace_prepared":
      requireLive(s, e);
      return { ...next, baseCommit: e.baseCommit, workdir: e.workdir, phase: s.phase === "queued" ? "planning" : s.phase };
    case "resumed":
      requireLive(s, e);
      return next;
    case "budget_parked":
    case "budget_raised":
      return reduceBudget(s, next, e);
    case "llm_called": {
      requireLive(s, e);
      requireNoOpenCalls(s, e.type);
      return { ...next, step: s.step + 1, outputCuts: s.outputCuts + (e.finishReason === "length" ? 1 : 0), usage: addCall(s.usage, e) };
    }
    case "assistant_message":
      requirePhase(s, e, ["planning", "executing"]);
      requireNoOpenCalls(s, e.type);
      return {
        ...next,
        openCalls: openTurn(s, e.type, e.toolCalls),
        conversation: [
          ...s.conversation,
          { role: "assistant", content: e.content, toolCalls: e.toolCalls, ...(e.reasoning !== undefined && { reasoning: e.reasoning }) },
        ],
      };
    case "tool_started":
      requireLive(s, e);
      requireOpen(s, e.type, e.callId);
      return { ...next, openCalls: markStarted(s, e.callId) };
    case "policy_decided":
      requireLive(s, e);
      return next;
    case "tool_result": {
      requireLive(s, e);
      requireOpen(s, e.type, e.callId);
      const inBatch = s.pending?.calls.some((c) => c.callId === e.callId) ?? false;
      if (inBatch && s.pending?.status === "pending") {
        throw new IllegalTransitionError(e.type, s.phase, `call ${e.callId} is waiting for approval`);
      }
      if (inBatch && s.pending?.settledCallIds.includes(e.callId)) {
        throw new IllegalTransitionError(e.type, s.phase, `call ${e.callId} already has a result`);
      }
      const pending =
        s.pending && s.pending.calls.some((c) => c.callId === e.callId) ? { ...s.pending, settledCallIds: [...s.pending.settledCallIds, e.callId] } : s.pending;
      return {
        ...next,
        pending,
        openCalls: closeCall(s, e.callId),
        latestToolResult: { callId: e.callId, tool: e.tool, result: e.result },
        conversation: [...s.conversation, toolResultMessage(e.callId, e.result)],
      };
    }
    case "file_read":
    case "file_written":
    case "file_deleted":
    case "file_moved":
    case "command_changed":
      return reduceFileChange(s, next, e);
    case "todos_updated": {
      requireLive(s, e);
      const active = e.todos.filter((t) => t.status === "in_progress").length;
      if (active > 1) throw new IllegalTransitionError(e.type, s.phase, `${active} todos in_progress; at most one`);
      return { ...next, todos: e.todos };
    }
    case "plan_updated":
      requirePhase(s, e, ["planning"]);
      return { ...next, plan: e.plan };
    case "plan_submitted":
      requirePhase(s, e, ["planning"]);
      return { ...next, plan: e.plan, planHash: e.hash, phase: "awaiting_plan_approval" };
    case "plan_approved":
      requirePhase(s, e, ["awaiting_plan_approval"]);
      requireAutomationMayApprove(s, e);
      if (e.hash !== s.planHash) throw new StaleApprovalError(s.planHash, e.hash);
      return {
        ...next,
        mode: "execute",
        phase: "executing",
        approvedPlanHash: e.hash,
        conversation: [...s.conversation, approvalMessage(e.by.login)],
      };
    case "question_asked":
      requirePhase(s, e, ["planning"]);
      return { ...next, phase: "awaiting_answer", questions: [...s.questions, { question: e.question, answer: null, by: null }] };
    case "question_answered": {
      requirePhase(s, e, ["awaiting_answer"]);
      if (e.index !== s.questions.length - 1)
        throw new IllegalTransitionError(e.type, s.phase, `the open question is ${s.questions.length - 1}, not ${e.index}`);
      const questions = s.questions.map((q, i) => (i === e.index ? { ...q, answer: e.answer, by: e.by.login } : q));
      return { ...next, phase: "planning", questions, conversation: [...s.conversation, answerMessage(s.questions[e.index].question, e.answer, e.by.login)] };
    }
    case "plan_revision_requested":
      requirePhase(s, e, ["planning", "awaiting_plan_approval"]);
      return {
        ...next,
        phase: "planning",
        conversation: [...s.conversation, revisionMessage(e.feedback, e.by.login)],
      };
    case "approval_requested":
      requirePhase(s, e, ["executing"]);
      if (s.pending) throw new IllegalTransitionError(e.type, s.phase, "a batch is already pending");
      for (const c of e.calls) requireOpen(s, e.type, c.callId);
      return {
        ...next,
        phase: "awaiting_write_approval",
        pending: { digest: e.digest, calls: e.calls, status: "pending", settledCallIds: [] },
      };
    case "approval_granted":
    case "approval_denied": {
      requirePhase(s, e, ["awaiting_write_approval"]);
      if (!s.pending || s.pending.status !== "pending") {
        throw new IllegalTransitionError(e.type, s.phase, "nothing is pending");
      }
      if (e.digest !== s.pending.digest) throw new StaleApprovalError(s.pending.digest, e.digest);
      if (e.type === "approval_granted") requireAutomationMayApprove(s, e);
      const status = e.type === "approval_granted" ? "approved" : "denied";
      const denyReason = e.type === "approval_denied" ? e.reason : undefined;
      const executableConfigApproved = executableConfigApproval(s, e);
      return { ...next, phase: "executing", pending: { ...s.pending, status, denyReason, decidedBy: e.by, executableConfigApproved } };
    }
    case "approval_settled":
      requireLive(s, e);
      if (!s.pending || s.pending.digest !== e.digest || s.pending.status === "pending") {
        throw new IllegalTransitionError(e.type, s.phase, "no decided batch with that digest");
      }
      if (s.pending.calls.some((c) => !s.pending?.settledCallIds.includes(c.callId))) {
        throw new IllegalTransitionError(e.type, s.phase, "some calls of the batch have no result yet");
      }
      return { ...next, pending: null };
    case "integrity_requested":
    case "integrity_approved":
    case "integrity_denied":
    case "integrity_checked":
      return reduceIntegrity(s, next, e);
    case "grant_requested":
    case "grant_approved":
    case "grant_denied":
      return reduceGrant(s, next, e);
    case "writes_auto_approved":
      requireLive(s, e);
      requireAutomationMayApprove(s, e);
      return { ...next, autoApproveWrites: true };
    case "diff_updated":
      requireLive(s, e);
      return { ...next, latestDiff: e.diff };
    case "test_run": {
      requireLive(s, e);
      const { type: _type, ...run } = e;
      return { ...next, testRuns: [...s.testRuns, run] };
    }
    case "setup_run": {
      requireLive(s, e);
      const passed = e.exitCode === 0 && e.timedOut !== true;
      const setup = {
        command: e.command,
        passed,
        exitCode: e.exitCode,
        durationMs: e.durationMs,
        summary: e.summary,
        network: e.network,
        inputDigest: e.inputDigest ?? null,
        ...(e.killed ? { killed: e.killed } : {}),
      };
      return { ...next, setup };
    }
    case "baseline_run": {
      requireLive(s, e);
      const { type: _type, ...run } = e;
      return { ...next, baseline: run };
    }
    case "block_reported":
      requirePhase(s, e, ["planning", "executing"]);
      return { ...next, blockReport: e.reason };
    case "setup_retry_requested":
      requireLive(s, e);
      return { ...next, setup: null };
    case "changes_rolled_back":
      requireLive(s, e);
      return next;
    case "user_message":
      requireLive(s, e);
      return { ...next, conversation: [...s.conversation, { role: "user", content: e.content }] };
    case "context_compacted":
      requireLive(s, e);
      if (e.cutIndex > s.conversation.length || e.cutIndex < (s.memory?.cutIndex ?? 0)) {
        throw new IllegalTransitionError(e.type, s.phase, `cut ${e.cutIndex} outside the conversation`);
      }
      return { ...next, memory: { cutIndex: e.cutIndex, summary: e.summary } };
    case "compaction_failed":
      requireLive(s, e);
      return next;
    case "finish_accepted":
      requirePhase(s, e, ["executing"]);
      if (s.pending) throw new IllegalTransitionError(e.type, s.phase, "a batch of writes is still open");
      return {
        ...next,
        phase: "publishing",
        finishSummary: e.summary,
        finishedTree: e.treeHash,
        finishedPaths: e.paths ?? null,
        preExistingFailures: e.preExisting ?? [],
      };
    case "published":
      requirePhase(s, e, ["publishing"]);
      return { ...next, phase: "done", published: { branch: e.branch, commit: e.commit, url: e.url, ...(e.tree ? { tree: e.tree } : {}) } };
    case "receipt_recorded":
      // A record of what was signed, in any phase: a receipt may follow the publication it describes.
      return { ...next, receipts: [...s.receipts, { commit: e.commit, kind: e.kind, digest: e.digest }] };
    case "branch_claimed":
      requireLive(s, e);
      return { ...next, lease: { branch: e.branch, head: e.head, ours: e.ours } };
    case "branch_pushed":
      requireLive(s, e);
      return { ...next, lease: { branch: e.branch, head: e.commit, ours: withOurs(s.lease, e.branch, e.commit) } };
    case "branch_push_intended":
      requireLive(s, e);
      if (s.lease?.branch !== e.branch) throw new IllegalTransitionError(e.type, s.phase, `the session's branch is ${s.lease?.branch ?? "unclaimed"}`);
      return { ...next, lease: { ...s.lease, ours: withOurs(s.lease, e.branch, e.commit) } };
    case "branch_rebased": {
      requirePhase(s, e, ["awaiting_plan_approval", "publishing"]);
      if (s.lease?.branch !== e.branch) throw new IllegalTransitionError(e.type, s.phase, `the session's branch is ${s.lease?.branch ?? "unclaimed"}`);
      const republishing = s.phase === "publishing";
      return {
        ...next,
        baseCommit: e.onto,
        lease: { ...s.lease, head: e.onto },
        ...(republishing
          ? { phase: "executing" as const, finishedTree: null, finishedPaths: null, finishSummary: null, preExistingFailures: [], integrityChecked: null }
          : {}),
        conversation: [...s.conversation, rebasedMessage(e.branch, e.foreign, republishing)],
      };
    }
    case "session_failed":
      requireLive(s, e);
      return { ...next, phase: "failed", failure: { reason: e.reason, message: e.message }, failedIn: s.phase };
    case "session_reopened": {
      requirePhase(s, e, ["failed"]);
      const phase = reopenPhase(s);
      if (e.phase !== phase) throw new IllegalTransitionError(e.type, s.phase, `the session continues in ${phase}, not ${e.phase}`);
      // A failed publication goes back to executing: finish must be accepted again on the tree as it is.
      const finish =
        s.failedIn === "publishing" ? { finishedTree: null, finishSummary: null, finishedPaths: null, preExistingFailures: [], integrityChecked: null } : {};
      return { ...next, ...finish, phase, failure: null, failedIn: null };
    }
    case "session_cancelled":
      requireLive(s, e);
      return { ...next, phase: "cancelled" };
    case "session_blocked":
      requireLive(s, e);
      return { ...next, phase: "blocked", blocked: { reason: e.reason, message: e.message, ...(e.work ? { work: e.work } : {}) } };
    case "limits_configured":
      requireLive(s, e);
      return { ...next, settings: { ...s.settings, limits: e.limits } };
    case "toolchains_resolved":
      requireLive(s, e);
      return { ...next, toolchains: e.toolchains };
    case "tool_versions":
      requireLive(s, e);
      return { ...next, toolVersions: e.versions };
    case "mcp_server_connected":
    case "mcp_server_failed":
    case "mcp_tools_listed":
    case "mcp_tool_dropped":
    case "mcp_call":
      requireLive(s, e);
      return next;
  }
}

/** state = fold(events). */
export function fold(events: readonly SessionEvent[]): SessionState {
  return events.reduce(reduce, emptyState());
}
