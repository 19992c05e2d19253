import type { SessionEventType, StoredEvent } from "../../session/events.js";
import { killText } from "../../session/run-kill-text.js";
import { clip, formatInt, formatUsd } from "../../safety/markdown.js";
import { withheldText } from "../../session/setup-withheld.js";
import { code, joined, type Inline } from "./doc.js";
import { toolchainsLine } from "../toolchains-line.js";
import { instructionsLine } from "../instructions-line.js";
import { budgetParkWords } from "../budget-words.js";
import { approvedBy, blockedWords, byWhom, duration, failureWords, plural, shortHash, shortSha } from "./words.js";

/**
 * One describer per event type: the event's line in its step (`line`; null folds it into the step,
 * for bookkeeping such as `resumed`), and what it adds to the step's one-line summary (`headline`).
 * An event type added by another part of the runtime plugs in here; until then the fallback shows
 * its type and fields.
 */
type Of<K extends SessionEventType> = Extract<StoredEvent, { type: K }>;

export interface EventWords<E extends StoredEvent = StoredEvent> {
  line(e: E): Inline[] | null;
  headline?(e: E): Inline[];
}

type Table = { [K in SessionEventType]: EventWords<Of<K>> };

const MAX_TEXT = 300;
const quoted = (text: string): string => `“${clip(text.trim(), MAX_TEXT)}”`;
const folded = { line: () => null };
const MAX_PATHS = 10;
const pathList = (paths: string[]): Inline[] => [
  ...paths.slice(0, MAX_PATHS).flatMap((p, i): Inline[] => (i === 0 ? [code(p)] : [", ", code(p)])),
  ...(paths.length > MAX_PATHS ? [` and ${paths.length - MAX_PATHS} more`] : []),
];

function limitsText(l: { maxSteps?: number; maxTokens?: number; maxCostUsd?: number }): string {
  const parts = [
    l.maxSteps === undefined ? null : `${formatInt(l.maxSteps)} model calls`,
    l.maxTokens === undefined ? null : `${formatInt(l.maxTokens)} tokens`,
    l.maxCostUsd === undefined ? null : formatUsd(l.maxCostUsd),
  ];
  return parts.filter((p) => p !== null).join(", ") || "none";
}

const EVENT_WORDS: Table = {
  session_created: {
    line: (e) => {
      const s = e.task.source;
      const issue = s.issueNumber !== undefined ? ` issue ${s.issueNumber}` : "";
      const by = s.requester ? `, asked by @${s.requester}` : "";
      return [`session created (${s.kind} ${s.repo}${issue}${by}): `, quoted(e.task.title), " · model ", code(e.model)];
    },
    headline: (e) => [`session started${e.task.source.requester ? ` for @${e.task.source.requester}` : ""}`],
  },
  instructions_loaded: { line: (e) => [`repository instructions: ${clip(instructionsLine(e), MAX_TEXT)}`] },
  workspace_prepared: { line: (e) => ["workspace cloned at base ", code(shortSha(e.baseCommit))] },
  resumed: folded,
  // The call's own line (verdict, result, duration) says it ran.
  tool_started: folded,
  session_reopened: {
    line: (e) => [`session reopened by @${e.by}: it continues from ${e.phase.replace(/_/g, " ")}`],
    headline: (e) => [`reopened by @${e.by}`],
  },
  llm_called: {
    line: (e) => {
      const cost = e.costUsd === null ? "cost unknown" : formatUsd(e.costUsd);
      const tokens = `${formatInt(e.usage.promptTokens)} + ${formatInt(e.usage.completionTokens)} tokens${e.usage.estimated ? " (estimated)" : ""}`;
      const retries = e.retries > 0 ? ` · ${e.retries} retries` : "";
      const failed = e.ok ? "" : ` · failed: ${clip(e.error ?? "unknown error", MAX_TEXT)}`;
      return [`model call: ${tokens} · ${duration(e.latencyMs)} · ${cost}${retries}${failed}`];
    },
  },
  assistant_message: folded,
  policy_decided: { line: (e) => [code(e.tool), " ", code(e.subject), " · ", code(e.rule), ` → ${e.decision}`] },
  tool_result: { line: (e) => [code(e.tool), e.result.ok ? " · ok" : " · ", ...(e.result.ok ? [] : [code(e.result.error.code)])] },
  file_read: { line: (e) => ["read ", code(e.path)] },
  file_written: { line: (e) => ["wrote ", code(e.path)] },
  file_deleted: { line: (e) => ["deleted ", code(e.path)] },
  file_moved: { line: (e) => ["renamed ", code(e.from), " → ", code(e.to)] },
  todos_updated: { line: (e) => [`todos: ${e.todos.filter((t) => t.status === "completed").length}/${e.todos.length} done`] },
  plan_updated: { line: () => ["draft plan updated"] },
  plan_submitted: { line: (e) => ["plan ", code(shortHash(e.hash)), ` submitted (${plural(e.plan.steps.length, "step")})`] },
  plan_approved: {
    line: (e) => ["plan ", code(shortHash(e.hash)), ` ${approvedBy(e.by)}`],
    headline: (e) => [`plan ${approvedBy(e.by)}`],
  },
  question_asked: { line: (e) => ["asked the maintainers: ", quoted(e.question)], headline: () => ["asked a question"] },
  question_answered: { line: (e) => [`answered by ${byWhom(e.by)}: `, quoted(e.answer)], headline: (e) => [`answered by ${byWhom(e.by)}`] },
  plan_revision_requested: {
    line: (e) => [`changes to the plan requested by ${byWhom(e.by)}: `, quoted(e.feedback)],
    headline: (e) => [`changes requested by ${byWhom(e.by)}`],
  },
  approval_requested: { line: (e) => ["approval asked for batch ", code(shortHash(e.digest)), ` (${plural(e.calls.length, "call")})`] },
  approval_granted: {
    line: (e) => ["batch ", code(shortHash(e.digest)), ` ${approvedBy(e.by)}${e.executableConfig ? ", executable configuration included" : ""}`],
  },
  approval_denied: { line: (e) => ["batch ", code(shortHash(e.digest)), ` denied by ${byWhom(e.by)}: `, quoted(e.reason)] },
  budget_parked: { line: (e) => [`parked: ${budgetParkWords(e)}`] },
  budget_raised: { line: (e) => [`budget raised by ${formatUsd(e.usd)} for this session by ${byWhom(e.by)}`] },
  integrity_requested: {
    line: (e) => ["test_integrity approval asked for ", code(shortHash(e.digest)), ` (${plural(e.report.findings.length, "finding")})`],
  },
  integrity_approved: { line: (e) => ["test_integrity ", code(shortHash(e.digest)), ` ${approvedBy(e.by)}`] },
  integrity_denied: { line: (e) => ["test_integrity ", code(shortHash(e.digest)), ` denied by ${byWhom(e.by)}: `, quoted(e.reason)] },
  integrity_checked: {
    line: (e) =>
      e.report.findings.length === 0
        ? [`test integrity: no weakening found (${plural(e.report.detectorsRun, "detector")} on ${plural(e.report.testFilesExamined, "test file")})`]
        : [`test integrity: ${plural(e.report.findings.length, "finding")} approved`],
  },
  grant_requested: {
    line: (e) => [
      `grant of ${e.request.kind} `,
      code(clip(e.request.target, MAX_TEXT)),
      " asked for ",
      code(shortHash(e.digest)),
      ": ",
      quoted(e.request.reason),
    ],
  },
  grant_approved: { line: (e) => ["grant ", code(shortHash(e.digest)), ` ${approvedBy(e.by)}, for this session`] },
  grant_denied: { line: (e) => ["grant ", code(shortHash(e.digest)), ` denied by ${byWhom(e.by)}: `, quoted(e.reason)] },
  writes_auto_approved: {
    line: (e) => [`all writes of the session approved by ${byWhom(e.by)}`],
    headline: (e) => [`all writes approved by ${byWhom(e.by)}`],
  },
  approval_settled: folded,
  diff_updated: { line: (e) => [`diff now: ${plural(e.diff.filesChanged, "file")}, +${e.diff.insertions} −${e.diff.deletions}`] },
  test_run: {
    line: (e) => [
      code(e.command),
      ` ${e.killed ? `failed, ${killText(e.killed)}` : e.timedOut ? "timed out" : e.exitCode === 0 ? "passed" : `failed (exit ${e.exitCode})`} on tree `,
      code(shortHash(e.treeHash)),
    ],
  },
  setup_run: {
    line: (e) => {
      const network = e.network
        ? e.refusedHosts?.length
          ? ` (with network; the egress proxy refused ${clip(e.refusedHosts.join(", "), MAX_TEXT)}: sandbox.allow_hosts)`
          : " (with network)"
        : ` (without network: ${e.withheld ? clip(withheldText(e.withheld), MAX_TEXT) : "sandbox.network_for_setup is false"})`;
      const outcome = e.exitCode === 0 && !e.timedOut ? "ok" : e.killed ? `failed, ${killText(e.killed)}` : `failed (exit ${e.exitCode})`;
      return ["setup ", code(e.command), ` ${outcome} in ${duration(e.durationMs)}${network}`];
    },
  },
  baseline_run: {
    line: (e) => {
      const failing = e.failing && e.failing.length > 0 ? `; failing before any change: ${clip(e.failing.join(", "), MAX_TEXT)}` : "";
      const outcome = e.killed ? `failed, ${killText(e.killed)}` : e.timedOut ? "timed out" : e.exitCode === 0 ? "passed" : `failed (exit ${e.exitCode})`;
      return ["baseline: ", code(e.command), ` ${outcome} on the base tree `, code(shortHash(e.treeHash)), failing];
    },
  },
  block_reported: { line: (e) => [`the agent reports it cannot finish: `, quoted(e.reason)] },
  setup_retry_requested: { line: (e) => [`@${e.by} asked for the failed setup to run again`] },
  user_message: {
    line: (e) => [e.by ? `@${e.by} wrote: ` : "runtime reminder: ", quoted(e.content)],
  },
  context_compacted: { line: (e) => [`older messages (before #${e.cutIndex}) summarised to fit the context`] },
  compaction_failed: { line: (e) => [`compaction failed, context kept as it was: ${clip(e.error, MAX_TEXT)}`] },
  finish_accepted: {
    line: (e) => [
      "finish accepted on tree ",
      code(shortHash(e.treeHash)),
      ...(e.paths ? [`, publishing ${plural(e.paths.length, "path")}`] : []),
      ...(e.preExisting && e.preExisting.length > 0
        ? [`, with ${plural(e.preExisting.length, "pre-existing failure")} (gate no_new_failures): ${clip(e.preExisting.join(", "), MAX_TEXT)}`]
        : []),
    ],
  },
  published: {
    // Only a GitHub publication has a pull request's URL; a local one was committed, not pushed.
    line: (e) => [e.url ? "pushed " : "committed ", code(shortSha(e.commit)), e.url ? " to " : " on ", code(e.branch)],
    headline: (e) => [e.url ? "pushed " : "committed ", code(shortSha(e.commit))],
  },
  receipt_recorded: {
    line: (e) => [`signed a receipt of the ${e.kind} commit `, code(shortSha(e.commit)), " (git note ", code("refs/notes/patchgate"), ")"],
  },
  // The push lease (publish/branch-lease.ts) is bookkeeping; a rebuild on commits a human pushed is news.
  branch_claimed: folded,
  branch_pushed: folded,
  branch_push_intended: folded,
  branch_rebased: {
    line: (e) => [
      "branch ",
      code(e.branch),
      ` had ${plural(e.foreign.length, "commit")} Patchgate did not make (`,
      ...joined(
        e.foreign.slice(0, MAX_PATHS).map((c) => [code(shortSha(c))]),
        ", ",
      ),
      "); the change was rebuilt on ",
      code(shortSha(e.onto)),
    ],
    headline: (e) => [`rebuilt on ${plural(e.foreign.length, "commit")} pushed by someone else`],
  },
  session_failed: {
    line: (e) => [`failed: ${failureWords(e.reason)} (`, code(e.reason), `): ${clip(e.message, MAX_TEXT)}`],
    headline: (e) => [`failed: ${failureWords(e.reason)}`],
  },
  session_blocked: {
    line: (e) => [`blocked: ${blockedWords(e.reason)} (`, code(e.reason), `): ${clip(e.message, MAX_TEXT * 2)}`],
    headline: (e) => [`blocked: ${blockedWords(e.reason)}`],
  },
  // How each toolchain was found, and what is missing with what to install: the timeline's own words.
  toolchains_resolved: { line: (e) => [`toolchains resolved: ${clip(toolchainsLine(e.toolchains, e.unmet), MAX_TEXT * 2)}`] },
  limits_configured: { line: (e) => [`session budget from ${e.source}: ${limitsText(e.limits)}`] },
  session_cancelled: {
    line: (e) => [`cancelled by ${e.by === "runtime" ? "the runtime" : `@${e.by}`}${e.reason ? `: ${clip(e.reason, MAX_TEXT)}` : ""}`],
    headline: (e) => [`cancelled by ${e.by === "runtime" ? "the runtime" : `@${e.by}`}`],
  },
  changes_rolled_back: {
    line: (e) => ["changes by ", code(e.tool), ` to ${plural(e.paths.length, "file")} put back (nobody approved them): `, ...pathList(e.paths)],
    headline: (e) => [`${plural(e.paths.length, "unapproved change")} rolled back`],
  },
  command_changed: {
    line: (e) => [
      "changes by ",
      code(e.tool),
      ` to ${plural(e.paths.length, "file")} kept (a human approved the command), published as they end up: `,
      ...pathList(e.paths),
    ],
  },
  // Bookkeeping unless a tool changed under the session.
  tool_versions: {
    line: (e) =>
      e.changed.length === 0
        ? null
        : [`tool versions changed: ${clip(e.changed.map((c) => `${c.tool} ${c.from ?? "(new)"} → ${c.to ?? "(gone)"}`).join(", "), MAX_TEXT)}`],
  },
  mcp_server_connected: {
    line: (e) => ["MCP server ", code(e.server), ` connected (${e.transport}, ${e.trust}): ${clip(`${e.serverName} ${e.serverVersion}`, MAX_TEXT)}`],
  },
  mcp_server_failed: {
    line: (e) => ["MCP server ", code(e.server), ` failed ${e.stage === "start" ? "to start" : "while running"}: ${clip(e.message, MAX_TEXT)}`],
    headline: (e) => ["MCP server ", code(e.server), " failed"],
  },
  mcp_tools_listed: {
    line: (e) => [
      "MCP server ",
      code(e.server),
      ` offers ${plural(e.tools.length, "tool")}${e.reason === "list_changed" ? ` (changed: +${e.added.length} −${e.removed.length} ~${e.changed.length})` : ""}`,
    ],
  },
  mcp_tool_dropped: { line: (e) => ["MCP tool ", code(`${e.server}/${e.tool}`), ` not offered: ${clip(e.reason, MAX_TEXT)}`] },
  // The call's own line (verdict, result) says the rest; stages a human or a crash decided get a line.
  mcp_call: {
    line: (e) =>
      e.stage === "started" || e.stage === "completed" || e.stage === "awaiting_approval"
        ? null
        : ["MCP call ", code(`${e.server}/${e.tool}`), ` ${e.stage.replace(/_/g, " ")}${e.by !== "policy" ? ` (@${e.by})` : ""} · `, code(e.rule)],
  },
};

const fallback: EventWords = {
  line: (e) => {
    const { type, seq: _s, at: _a, ...rest } = e as { type: string; seq: number; at: string };
    return [code(type), ` ${clip(JSON.stringify(rest), MAX_TEXT)}`];
  },
};

export function eventWords(e: StoredEvent): EventWords {
  return (EVENT_WORDS as Record<string, EventWords>)[e.type] ?? fallback;
}
