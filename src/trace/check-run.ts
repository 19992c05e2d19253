/**
 * The `Patchgate` check run's output: title, summary (the report a reviewer reads first) and text
 * (the timeline by step). Pure: the GitHub publisher sends what this returns. Every part is redacted
 * and each of summary and text is at most 65535 UTF-8 bytes whatever the session contains.
 */
import type { StoredEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { Phase } from "../session/types.js";
import { clip } from "../safety/markdown.js";
import { redact } from "../safety/redact.js";
import { plural } from "./report/words.js";
import { batches, provenance, type Annotation } from "./report/provenance.js";
import { renderReport } from "./report/report.js";
import { buildView } from "./report/session-view.js";

export interface CheckRunOutput {
  title: string;
  summary: string;
  text: string;
}

export interface RenderOptions {
  sessionId: string;
  secrets?: readonly string[];
  /** The session's pull request (its Files tab is linked from the summary). */
  pullUrl?: string;
  /** Where the deployment's public keys are served (the Receipt section's verification line). */
  keysUrl?: string;
  /** Defaults to GitHub's limit; smaller values are for tests. */
  maxBytes?: number;
}

const PHASE_TITLES: Record<Phase, string> = {
  queued: "Queued",
  planning: "Planning",
  awaiting_plan_approval: "Waiting for plan approval",
  awaiting_answer: "Waiting for an answer",
  executing: "Executing",
  awaiting_write_approval: "Waiting for write approval",
  awaiting_integrity_approval: "Waiting for test-integrity approval",
  awaiting_grant: "Waiting for a grant",
  awaiting_budget: "Waiting for budget",
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
  if (s.phase === "done" && s.latestDiff) return `${base}: ${plural(s.latestDiff.filesChanged, "file")} changed, tests passed`;
  if (s.phase === "executing" && s.todos.length > 0) {
    const done = s.todos.filter((t) => t.status === "completed").length;
    return `${base}: ${done}/${s.todos.length} todos done`;
  }
  return base;
}

/** The check run's title, also the first line of `patchgate show`. */
export function checkRunTitle(state: SessionState, secrets: readonly string[] = []): string {
  return clip(redact(`Patchgate: ${title(state)}`, secrets), 200);
}

export function renderCheckRun(state: SessionState, events: readonly StoredEvent[], opts: RenderOptions): CheckRunOutput {
  const report = renderReport(state, events, { ...opts, format: "markdown" });
  return { title: checkRunTitle(state, opts.secrets), summary: report.summary, text: report.timeline };
}

/**
 * Provenance annotations for the pushed commit's changed lines, in GitHub's batches of at most 50.
 * Empty until the session is done: only then is there a pushed commit whose lines they can name.
 */
export function checkRunAnnotations(state: SessionState, events: readonly StoredEvent[], secrets: readonly string[] = []): Annotation[][] {
  if (state.phase !== "done" || !state.published) return [];
  const { annotations } = provenance(buildView(state, events));
  return batches(annotations.map((a) => ({ ...a, message: redact(a.message, secrets) })));
}
