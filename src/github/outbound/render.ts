import type { SessionState } from "../../session/state.js";
import type { PendingCall, Todo } from "../../session/types.js";
import { clip, codeBlock, inlineCode, oneLine } from "../../safety/markdown.js";
import { inert } from "../../safety/inert.js";
import { pathList } from "../../trace/publish-list.js";
import { isMcpName } from "../../mcp/index.js";

/**
 * The bodies Patchgate writes on GitHub (PR, comments). Pure: state in, markdown out. The plan and
 * previews are model output, so each is clipped and fenced (previews) or made inert (prose: no
 * mentions, no issue references, see ./inert.ts); the caller redacts before posting.
 */
const MAX_PREVIEW = 6000;

export function shortHash(h: string): string {
  return h.slice(0, 12);
}

function todoList(todos: Todo[]): string {
  if (todos.length === 0) return "_No todos yet._";
  return todos
    .map(
      (t) =>
        `- [${t.status === "completed" ? "x" : " "}] ${inert(clip(oneLine(t.content), 300))}${t.status === "in_progress" ? " _(in progress)_" : t.status === "cancelled" ? " _(cancelled)_" : ""}`,
    )
    .join("\n");
}

function planText(s: SessionState): string {
  if (!s.plan) return "_No plan yet._";
  const steps = s.plan.steps.map((step, i) => `${i + 1}. ${inert(clip(oneLine(step), 500))}`).join("\n");
  return `${inert(clip(s.plan.summary, 3000))}\n\n${steps}`;
}

const HOW_TO_APPROVE = (hash: string) =>
  [
    "### How to approve",
    `This plan is \`${shortHash(hash)}\`. Any of these approves exactly this plan (a newer plan needs a new approval):`,
    "- submit a pull request review with **Approve**,",
    `- comment \`/agent approve\` (or \`/agent approve ${shortHash(hash)}\`),`,
    "- add the label `agent:plan-approved`,",
    "- or press **Approve plan** on the `Patchgate` check run.",
    "",
    "To change it: a review with **Request changes** and your feedback, or `/agent revise <feedback>`. `/agent stop` cancels.",
  ].join("\n");

/** A blocked session's PR: the report is recorded (and the work being pushed) or the session is blocked. */
const isBlockedReport = (s: SessionState): boolean => s.blockReport !== null && (s.phase === "executing" || s.phase === "blocked");

export function pullRequestBody(s: SessionState, issue: number): string {
  const head =
    s.phase === "done" || s.phase === "publishing"
      ? "## Done"
      : isBlockedReport(s)
        ? "## Blocked — untested work so far (draft)"
        : "## Plan (draft — waiting for approval)";
  const parts = [`Resolves #${issue}.`, "", head, "", ...(isBlockedReport(s) ? [untestedText(s), ""] : []), planText(s), "", "### Todos", todoList(s.todos)];
  if (s.finishSummary) parts.push("", "### Summary", inert(clip(s.finishSummary, 4000)));
  if (s.preExistingFailures.length > 0) parts.push("", "### Pre-existing test failures", preExistingText(s.preExistingFailures));
  if (s.latestDiff && s.latestDiff.filesChanged > 0) parts.push("", "### Changes", codeBlock(clip(s.latestDiff.stat, 4000)));
  if (s.phase === "awaiting_plan_approval" && s.planHash) parts.push("", HOW_TO_APPROVE(s.planHash));
  return parts.join("\n");
}

/** What a reviewer of a blocked session's PR must know first: the commit is untested, and why it stopped. */
function untestedText(s: SessionState): string {
  const failing = s.testRuns.at(-1)?.failing ?? null;
  const names =
    failing && failing.length > 0
      ? ` Failing: ${failing
          .slice(0, 20)
          .map((n) => inlineCode(clip(oneLine(n), 200)))
          .join(", ")}${failing.length > 20 ? ", …" : ""}.`
      : "";
  return [
    `> [!WARNING]\n> **Untested.** The agent reported that it cannot finish, and the tests did not pass on this branch's last commit.${names} Patchgate keeps the work here as a draft and never marks it ready for review.`,
    "",
    "### Why it stopped",
    inert(clip(s.blockReport ?? "", 3000)),
  ].join("\n");
}

/** Tests that still fail, accepted because they failed on the base tree too (`gate: no_new_failures`). */
function preExistingText(names: readonly string[]): string {
  const shown = names.slice(0, 50).map((n) => `- ${inlineCode(clip(oneLine(n), 200))}`);
  const more = names.length > 50 ? [`- … and ${names.length - 50} more`] : [];
  return [`These tests fail on this branch and already failed on the base branch before the change (gate \`no_new_failures\`):`, "", ...shown, ...more].join(
    "\n",
  );
}

/**
 * The agent's report_blocked: its reason (model-written, so made inert), what the runtime saw (the
 * baseline and the last test run), and the work so far, which stays with the draft pull request.
 */
function reportedBlockedComment(s: SessionState): string {
  const parts = ["⛔ The agent reports that it cannot finish this task (`reported_by_agent`):", "", inert(clip(s.blocked?.message ?? "", 3000))];
  const b = s.baseline;
  if (b)
    parts.push(
      "",
      `Baseline, before any change: \`${b.command}\` ${runOutcome(b)}${
        b.failing && b.failing.length > 0
          ? `; failing already: ${b.failing
              .slice(0, 20)
              .map((n) => inlineCode(clip(oneLine(n), 200)))
              .join(", ")}`
          : ""
      }.`,
    );
  const last = s.testRuns.at(-1);
  parts.push("", last ? `Test runs in the session: ${s.testRuns.length}; the last one ${runOutcome(last)}.` : "No test run after the baseline.");
  const work = s.blocked?.work;
  const stat = s.latestDiff && s.latestDiff.filesChanged > 0 ? [codeBlock(clip(s.latestDiff.stat, 3000))] : [];
  const notPushed = work && !work.pushed ? `not pushed: ${inert(clip(oneLine(work.why), 600))}` : "";
  if (work?.pushed)
    parts.push(
      "",
      `Work so far, **untested**, pushed to the draft pull request's branch \`${work.branch}\` as \`${work.commit.slice(0, 12)}\` (the PR stays a draft):`,
      ...stat,
    );
  else if (stat.length > 0) parts.push("", `Work so far (${notPushed || "kept in the session, not pushed"}):`, ...stat);
  else if (notPushed) parts.push("", `The work so far was ${notPushed}.`);
  parts.push(
    "",
    `Fix what stands in the way (or change \`gate\` in \`.github/patchgate.yml\`), then \`/agent retry\` starts again${work?.pushed ? ", continuing from the pushed work" : ""}.`,
  );
  return parts.join("\n");
}

function runOutcome(r: { exitCode: number | null; timedOut: boolean }): string {
  return r.timedOut ? "timed out" : r.exitCode === 0 ? "passed" : `failed (exit ${r.exitCode})`;
}

export function planComment(s: SessionState, prUrl: string): string {
  return `📋 The plan \`${shortHash(s.planHash ?? "")}\` is ready for review in the draft pull request ${prUrl}.\n\n${planText(s)}\n\nApprove it there (review **Approve**, \`/agent approve\`, label \`agent:plan-approved\`, or the check run button), or send it back with \`/agent revise <feedback>\`.`;
}

function callBlock(c: PendingCall): string {
  const preview = clip(c.preview, MAX_PREVIEW);
  // An MCP call's preview names the server, the tool and the arguments: plain text, not a diff.
  const lang = c.tool === "run_command" || c.tool === "run_tests" ? "sh" : isMcpName(c.tool) ? "text" : "diff";
  return `**${inlineCode(c.tool)}** (rule ${inlineCode(c.rule)})\n\n${codeBlock(preview, lang)}`;
}

/** The file tools whose approved calls make paths publishable, and the input fields that name them. */
const WRITE_PATH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  write_file: ["path"],
  edit_file: ["path"],
  delete_file: ["path"],
  move_file: ["from", "to"],
};

/** The paths the writes of a batch name (a move names both ends). */
function batchWritePaths(calls: readonly PendingCall[]): string[] {
  return calls.flatMap((c) => {
    const input = (c.input ?? {}) as Record<string, unknown>;
    return (WRITE_PATH_FIELDS[c.tool] ?? []).map((f) => input[f]).filter((p): p is string => typeof p === "string");
  });
}

export function batchComment(s: SessionState): string {
  const p = s.pending;
  if (!p) return "";
  const published = [...new Set([...s.publishablePaths, ...batchWritePaths(p.calls)])].sort();
  const commands = p.calls.some((c) => c.tool === "run_command") ? " An approved command adds every file it changes." : "";
  const ordinary = p.calls.filter((c) => !c.executableConfig);
  const executable = p.calls.filter((c) => c.executableConfig);
  return [
    `✋ The agent wants to do ${p.calls.length === 1 ? "this" : `these ${p.calls.length} things`} (batch \`${shortHash(p.digest)}\`):`,
    "",
    ...ordinary.map(callBlock),
    ...executableSection(executable, p.digest),
    "",
    `If this batch is approved, the session can publish these files, and nothing else:${commands}`,
    "",
    pathList(published),
    "",
    `Reply \`/agent approve\` to let the batch run, \`/agent deny <reason>\` to refuse it (the reason goes back to the agent), or add the label \`agent:writes-approved\` to allow every write for this session.`,
  ].join("\n");
}

/**
 * Writes of executable configuration, apart: each says which tool runs it and when, and only the
 * explicit command approves them; `/agent approve` and the label leave them unwritten.
 */
function executableSection(calls: readonly PendingCall[], digest: string): string[] {
  if (calls.length === 0) return [];
  const notes = calls.map((c) => `- ${inlineCode(c.executableConfig!.path)}: ${inert(c.executableConfig!.tool)} — ${inert(c.executableConfig!.when)}`);
  return [
    "",
    "### ⚠️ Executable configuration: needs its own approval",
    "",
    `These writes change files a tool runs or obeys on its own (CI with the project's secrets, a maintainer's editor, git hooks, installs, later agents):`,
    "",
    ...notes,
    "",
    ...calls.map(callBlock),
    "",
    `Only \`/agent approve executable-config ${shortHash(digest)}\` approves them with the rest of the batch. \`/agent approve\` and the label \`agent:writes-approved\` run the other calls and refuse these.`,
  ];
}

export function statusComment(s: SessionState): string {
  const lines = [`**Patchgate status:** \`${s.phase}\` · mode \`${s.mode}\` · ${s.step} model calls`];
  if (s.planHash) lines.push(`Plan \`${shortHash(s.planHash)}\`${s.approvedPlanHash === s.planHash ? " (approved)" : ""}`);
  if (s.pending?.status === "pending") lines.push(`Waiting for approval of batch \`${shortHash(s.pending.digest)}\` (${s.pending.calls.length} calls).`);
  if (s.failure) lines.push(`Failed: \`${s.failure.reason}\` — ${inert(clip(oneLine(s.failure.message), 300))}`);
  if (s.blocked) lines.push(`Blocked: \`${s.blocked.reason}\` — ${inert(clip(oneLine(s.blocked.message), 600))}`);
  if (s.published?.url) lines.push(`Published: ${s.published.url}`);
  lines.push("", todoList(s.todos));
  return lines.join("\n");
}

export function doneComment(s: SessionState, prUrl: string): string {
  return `✅ Done: ${prUrl} is ready for review.${s.finishSummary ? `\n\n${inert(clip(s.finishSummary, 2000))}` : ""}`;
}

export function endedComment(s: SessionState): string {
  if (s.phase === "cancelled") return "🛑 The session was cancelled.";
  if (s.phase === "blocked" && s.blocked?.reason === "reported_by_agent") return reportedBlockedComment(s);
  if (s.phase === "blocked")
    return `⛔ The session is blocked (\`${s.blocked?.reason ?? "blocked"}\`): ${inert(clip(oneLine(s.blocked?.message ?? ""), 1500))}\n\n\`/agent retry\` starts again once that is done.`;
  const next = s.mode === "execute" ? "`/agent retry` continues from where it stopped, with the plan still approved." : "`/agent retry` starts again.";
  return `❌ The session failed: \`${s.failure?.reason ?? "internal"}\` — ${inert(clip(oneLine(s.failure?.message ?? ""), 500))}\n\n${next}`;
}
