/**
 * The timeline: one short, redacted, single-line row per stored event. The check run, `patchgate
 * trace` and the eval report all read a session through these rows.
 */

import type { StoredEvent } from "../session/events.js";
import { clip, formatUsd, oneLine } from "../safety/markdown.js";
import { redact } from "../safety/redact.js";
import { toolchainsLine } from "./toolchains-line.js";
import { dependencyCacheText } from "../depcache/index.js";
import { instructionsLine } from "./instructions-line.js";
import { withheldText } from "../session/setup-withheld.js";
import { killText } from "../session/run-kill-text.js";
import type { TestRun } from "../session/types.js";

export interface TimelineRow {
  /** `YYYY-MM-DD HH:MM:SS` (UTC) of the append. */
  time: string;
  /** LLM calls made up to and including this event (0 before the first call). */
  step: number;
  event: string;
  detail: string;
}

export const MAX_DETAIL_CHARS = 200;

const short = (hash: string): string => hash.slice(0, 12);
const ms = (n: number): string => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n} ms`);

/** The one argument that tells what a tool call was about (a path, a command, a query), if any. */
function subjectOf(input: unknown): string {
  if (input === null || typeof input !== "object") return "";
  const record = input as Record<string, unknown>;
  for (const key of ["path", "command", "cmd", "pattern", "query"]) {
    const v = record[key];
    if (typeof v === "string" && v !== "") return ` ${v}`;
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) return ` ${v.join(" ")}`;
  }
  return "";
}

/** passed / failed (exit 1) / failed, killed by SIGXCPU: the CPU-time limit (sandbox.cpu_seconds). */
function testRunStatus(e: Pick<TestRun, "exitCode" | "timedOut" | "killed">, timeLimit: string): string {
  if (e.killed) return `failed, ${killText(e.killed, timeLimit)}`;
  return e.timedOut ? "timed out" : e.exitCode === 0 ? "passed" : `failed (exit ${e.exitCode})`;
}

function setupNetworkText(e: Extract<StoredEvent, { type: "setup_run" }>): string {
  if (e.network && e.refusedHosts?.length) return `, with network; the egress proxy refused ${e.refusedHosts.join(", ")} (sandbox.allow_hosts)`;
  if (e.network) return ", with network";
  return `, without network: ${e.withheld ? withheldText(e.withheld) : "sandbox.network_for_setup is false"}`;
}

function describe(e: StoredEvent): string {
  switch (e.type) {
    case "session_created":
      return `${e.task.source.kind} ${e.task.source.repo}: ${e.task.title} (model ${e.model})`;
    case "workspace_prepared":
      return `base ${short(e.baseCommit)}`;
    case "resumed":
      return e.trigger;
    case "llm_called": {
      const cost = e.costUsd === null ? "cost unknown" : formatUsd(e.costUsd);
      const est = e.usage.estimated ? " (estimated)" : "";
      const head = `${e.model} ${e.usage.promptTokens}+${e.usage.completionTokens} tokens${est}, ${ms(e.latencyMs)}, ${cost}`;
      const retries = e.retries > 0 ? `, ${e.retries} retries` : "";
      return e.ok ? head + retries : `failed: ${e.error ?? "unknown error"}; ${head}${retries}`;
    }
    case "assistant_message": {
      const calls = e.toolCalls.map((c) => c.name).join(", ");
      const text = e.content?.trim() ? e.content.trim() : "";
      return [calls && `calls ${calls}`, text].filter(Boolean).join(" — ") || "(empty)";
    }
    case "tool_started":
      return e.callId;
    case "policy_decided":
      return `${e.tool} ${e.subject} → ${e.decision} (${e.rule})`;
    case "tool_result": {
      const outcome = e.result.ok ? "ok" : `error ${e.result.error.code}: ${e.result.error.message}`;
      return `${e.tool}${subjectOf(e.input)} ${outcome}${e.result.truncated ? " (truncated)" : ""}, ${ms(e.durationMs)}`;
    }
    case "file_read":
    case "file_written":
      return e.path;
    case "file_deleted":
      return `deleted ${e.path}`;
    case "file_moved":
      return `renamed ${e.from} → ${e.to}`;
    case "todos_updated": {
      const count = (s: string): number => e.todos.filter((t) => t.status === s).length;
      return `${e.todos.length} todos: ${count("completed")} done, ${count("in_progress")} in progress, ${count("pending")} pending`;
    }
    case "plan_updated":
      return `${e.plan.summary} (${e.plan.steps.length} steps)`;
    case "plan_submitted":
      return `${short(e.hash)}: ${e.plan.summary} (${e.plan.steps.length} steps)`;
    case "plan_approved":
      return `${short(e.hash)} by ${e.by.how ?? `@${e.by.login} via ${e.by.via}`}`;
    case "plan_revision_requested":
      return `by @${e.by.login}: ${e.feedback}`;
    case "question_asked":
      return e.question;
    case "question_answered":
      return `question ${e.index + 1}, by @${e.by.login} via ${e.by.via}: ${e.answer}`;
    case "approval_requested":
      return `${short(e.digest)}: ${e.calls.map((c) => c.tool).join(", ")}`;
    case "approval_granted":
      return `${short(e.digest)} by @${e.by.login} via ${e.by.via}${e.executableConfig ? ", executable configuration included" : ""}`;
    case "approval_denied":
      return `${short(e.digest)} by @${e.by.login}: ${e.reason}`;
    case "approval_settled":
      return short(e.digest);
    case "writes_auto_approved":
      return `by @${e.by.login} via ${e.by.via}`;
    case "diff_updated":
      return `${e.diff.filesChanged} files, +${e.diff.insertions} −${e.diff.deletions}`;
    case "baseline_run":
    case "test_run": {
      return `${e.command} ${testRunStatus(e, "timeouts.test_seconds")} in ${ms(e.durationMs)} on ${short(e.treeHash)}`;
    }
    case "user_message":
      return `${e.by ? `@${e.by}: ` : ""}${e.content}`;
    case "context_compacted":
      return `messages before #${e.cutIndex} summarised`;
    case "compaction_failed":
      return e.error;
    case "finish_accepted":
      return `${short(e.treeHash)}: ${e.summary}`;
    case "published":
      return `${e.branch} @ ${short(e.commit)}${e.url ? ` ${e.url}` : ""}`;
    case "receipt_recorded":
      return `${e.kind} commit ${short(e.commit)}: receipt ${short(e.digest.replace(/^sha256:/, ""))}`;
    case "branch_claimed":
      return `${e.branch}${e.head ? ` expected at ${short(e.head)}` : " (new)"}`;
    case "branch_pushed":
      return `${e.branch} @ ${short(e.commit)}${e.via === "api" ? " (signed, Git Data API)" : e.via === "git" ? ` (git, unsigned: ${e.unsigned ?? ""})` : ""}`;
    case "branch_push_intended":
      return `${e.branch} → ${short(e.commit)}`;
    case "branch_rebased":
      return `${e.branch}: rebuilt on ${short(e.onto)}, keeping ${e.foreign.length} commit${e.foreign.length === 1 ? "" : "s"} Patchgate did not make (${e.foreign.map(short).join(", ")})`;
    case "session_failed":
      return `${e.reason}: ${e.message}`;
    case "session_cancelled":
      return `by @${e.by}${e.reason ? `: ${e.reason}` : ""}`;
    case "command_changed":
      return `${e.tool} (approved) changed ${e.paths.join(", ")}`;
    case "session_blocked":
      return `${e.reason}: ${e.message}`;
    case "toolchains_resolved":
      return toolchainsLine(e.toolchains, e.unmet);
    case "instructions_loaded":
      return instructionsLine(e);
    case "changes_rolled_back":
      return `${e.tool} changed ${e.paths.length} file${e.paths.length === 1 ? "" : "s"}, put back: ${e.paths.join(", ")}`;
    case "session_reopened":
      return `by @${e.by}, continues in ${e.phase}`;
    case "setup_run": {
      const status =
        e.exitCode === 0 && !e.timedOut ? "ok" : e.killed ? `failed, ${killText(e.killed, "timeouts.setup_seconds")}` : `failed (exit ${e.exitCode})`;
      return `${e.command} ${status} in ${ms(e.durationMs)}${setupNetworkText(e)}${dependencyCacheText(e.dependencyCache)}`;
    }
    case "tool_versions":
      return e.changed.length === 0
        ? `${Object.keys(e.versions).length} tools recorded`
        : `changed since the last record: ${e.changed.map((c) => `${c.tool} ${c.from ?? "(new)"} → ${c.to ?? "(gone)"}`).join(", ")}`;
    case "mcp_server_connected":
      return `${e.server} (${e.trust}, ${e.transport}): ${e.serverName} ${e.serverVersion}`;
    case "mcp_server_failed":
      return `${e.server} ${e.stage === "start" ? "did not start" : "stopped"}: ${e.message}`;
    case "mcp_tools_listed": {
      const delta = e.reason === "start" ? "" : ` (+${e.added.length} −${e.removed.length} ~${e.changed.length})`;
      return `${e.server}, ${e.reason}${delta}: ${e.tools.map((t) => `${t.tool} ${t.risk}`).join(", ") || "no tools"}`;
    }
    case "mcp_tool_dropped":
      return `${e.server}/${e.tool}: ${e.reason}`;
    case "mcp_call": {
      const done = e.stage === "completed" ? `, ${e.ok ? "ok" : "error"} in ${ms(e.durationMs ?? 0)}, ${e.resultBytes ?? 0} bytes` : "";
      return `${e.stage} ${e.server}/${e.tool} → ${e.decision} (${e.rule}) by ${e.by}${done}`;
    }
    default: {
      // An event type newer than this file: show its fields rather than nothing.
      const { type: _t, seq: _s, at: _a, ...rest } = e as { type: string; seq: number; at: string };
      return JSON.stringify(rest).slice(0, MAX_DETAIL_CHARS * 2);
    }
  }
}

function formatTime(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toISOString().slice(0, 19).replace("T", " ");
}

/** Redaction runs before clipping: a clipped token would no longer match its pattern. */
export function timelineRows(events: readonly StoredEvent[], secrets: readonly string[] = []): TimelineRow[] {
  let step = 0;
  return events.map((e) => {
    if (e.type === "llm_called") step += 1;
    const detail = clip(oneLine(redact(describe(e), secrets)), MAX_DETAIL_CHARS);
    return { time: formatTime(e.at), step, event: e.type, detail };
  });
}
