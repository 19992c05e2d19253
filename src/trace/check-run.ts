/**
 * The `Patchgate` check run's output: title, summary (state at a glance) and text (the timeline).
 * Pure: the GitHub publisher sends what this returns. Every part is redacted and each of summary and
 * text is at most 65535 UTF-8 bytes whatever the session contains.
 */

import type { StoredEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { Phase } from "../session/types.js";
import { CHECK_RUN_MAX_BYTES, fitRows, truncateUtf8 } from "./byte-limit.js";
import { diffSection, planSection, statusSection, testSection, todoSection, usageSection } from "./check-run-summary.js";
import { clip, escapeCell } from "./markdown.js";
import { redact } from "../safety/redact.js";
import { timelineRows } from "./timeline.js";

export interface CheckRunOutput {
  title: string;
  summary: string;
  text: string;
}

export interface RenderOptions {
  sessionId: string;
  secrets?: readonly string[];
  /** Defaults to GitHub's limit; smaller values are for tests. */
  maxBytes?: number;
}

const PHASE_TITLES: Record<Phase, string> = {
  queued: "Queued",
  planning: "Planning",
  awaiting_plan_approval: "Waiting for plan approval",
  executing: "Executing",
  awaiting_write_approval: "Waiting for write approval",
  publishing: "Publishing",
  done: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  blocked: "Blocked",
};

function title(s: SessionState): string {
  const base = PHASE_TITLES[s.phase];
  if (s.phase === "failed" && s.failure) return `${base}: ${s.failure.reason}`;
  if (s.phase === "blocked" && s.blocked) return `${base}: ${s.blocked.reason}`;
  if (s.phase === "done" && s.latestDiff) return `${base}: ${s.latestDiff.filesChanged} files changed, tests passed`;
  if (s.phase === "executing" && s.todos.length > 0) {
    const done = s.todos.filter((t) => t.status === "completed").length;
    return `${base}: ${done}/${s.todos.length} todos done`;
  }
  return base;
}

export function omittedNote(sessionId: string): (n: number) => string {
  return (n) => `… ${n} events omitted — run \`patchgate trace ${sessionId}\` to see all`;
}

const TABLE_HEADER = "| time (UTC) | step | event | detail |\n|---|---:|---|---|";

function timelineText(events: readonly StoredEvent[], opts: RenderOptions, maxBytes: number): string {
  const heading = "## Timeline\n\n";
  const rows = timelineRows(events, opts.secrets).map(
    (r) => `| ${r.time} | ${r.step} | ${r.event} | ${escapeCell(r.detail)} |`,
  );
  if (rows.length === 0) return `${heading}_No events._`;
  const budget = maxBytes - Buffer.byteLength(heading, "utf8");
  return heading + fitRows(TABLE_HEADER, rows, budget, omittedNote(opts.sessionId));
}

/**
 * Redaction runs on each part and once more on the assembled body; the final byte cut comes after
 * the last redaction, so no replacement can push a body over the limit.
 */
export function renderCheckRun(
  state: SessionState,
  events: readonly StoredEvent[],
  opts: RenderOptions,
): CheckRunOutput {
  const secrets = opts.secrets ?? [];
  const max = opts.maxBytes ?? CHECK_RUN_MAX_BYTES;
  const footer = `<sub>Session \`${opts.sessionId}\` · full trace: \`patchgate trace ${opts.sessionId}\`</sub>`;
  const sections = [statusSection(state), planSection(state), todoSection(state), testSection(state), diffSection(state), usageSection(state)];
  const summary = [...sections.map((s) => redact(s, secrets)), footer].join("\n\n");
  const note = `\n\n… summary truncated — run \`patchgate trace ${opts.sessionId}\` to see all`;
  return {
    title: clip(redact(`Patchgate: ${title(state)}`, secrets), 200),
    summary: truncateUtf8(redact(summary, secrets), max, note),
    text: truncateUtf8(redact(timelineText(events, opts, max), secrets), max, note.replace("summary", "timeline")),
  };
}
