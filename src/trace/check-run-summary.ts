/**
 * The sections of the check run summary: what a maintainer needs at a glance. Each section caps its
 * own content so that one runaway field (a 500-step plan, a megabyte of test output) cannot push
 * the others out; the caller still enforces the byte limit on the whole.
 */

import type { SessionState } from "../session/state.js";
import type { Todo } from "../session/types.js";
import { clip, codeBlock, formatInt, formatUsd, inlineCode, oneLine } from "./markdown.js";
import { pathList, pathsToPublish } from "./publish-list.js";

const MAX_PLAN_CHARS = 3000;
const MAX_ITEMS = 50;
const MAX_ITEM_CHARS = 300;
const MAX_TEST_OUTPUT_CHARS = 3000;
const MAX_STAT_CHARS = 4000;

function more(total: number, shown: number): string[] {
  return total > shown ? [`- … and ${total - shown} more`] : [];
}

export function statusSection(s: SessionState): string {
  const lines = [`**Phase:** \`${s.phase}\` · **Mode:** \`${s.mode}\` · **Steps:** ${s.step}`];
  if (s.phase === "failed" && s.failure) {
    lines.push(`**Outcome:** failed — \`${s.failure.reason}\`: ${clip(oneLine(s.failure.message), MAX_ITEM_CHARS)}`);
  } else if (s.phase === "blocked" && s.blocked) {
    lines.push(`**Outcome:** blocked — \`${s.blocked.reason}\`: ${clip(oneLine(s.blocked.message), MAX_ITEM_CHARS * 2)}`);
  } else if (s.phase === "cancelled") {
    lines.push("**Outcome:** cancelled");
  } else if (s.phase === "done") {
    const where = s.published ? ` on \`${s.published.branch}\`${s.published.url ? ` (${s.published.url})` : ""}` : "";
    lines.push(`**Outcome:** done${where}`);
  }
  // What the sandbox ran the tests with, at a glance; how each was found is in the timeline's row.
  if (s.toolchains && s.toolchains.length > 0) {
    const each = s.toolchains.map((t) => `${t.name} ${t.version} (${inlineCode(t.path)})`);
    lines.push(`**Toolchains:** ${clip(oneLine(each.join(" · ")), MAX_ITEM_CHARS * 2)}`);
  }
  if (s.finishSummary) lines.push("", clip(s.finishSummary, MAX_PLAN_CHARS));
  return lines.join("\n");
}

export function planSection(s: SessionState): string {
  if (!s.plan) return "### Plan\n\n_No plan yet._";
  const approved = s.approvedPlanHash !== null && s.approvedPlanHash === s.planHash ? " (approved)" : "";
  const steps = s.plan.steps.slice(0, MAX_ITEMS).map((step, i) => `${i + 1}. ${clip(oneLine(step), MAX_ITEM_CHARS)}`);
  return [
    `### Plan${approved}`,
    "",
    clip(s.plan.summary, MAX_PLAN_CHARS),
    "",
    ...steps,
    ...more(s.plan.steps.length, steps.length),
  ].join("\n");
}

function todoLine(t: Todo): string {
  const text = clip(oneLine(t.content), MAX_ITEM_CHARS);
  switch (t.status) {
    case "completed":
      return `- [x] ${text}`;
    case "in_progress":
      return `- [ ] **${text}** (in progress)`;
    case "cancelled":
      return `- [ ] ~~${text}~~ (cancelled)`;
    case "pending":
      return `- [ ] ${text}`;
  }
}

export function todoSection(s: SessionState): string {
  if (s.todos.length === 0) return "### Todos\n\n_None._";
  const shown = s.todos.slice(0, MAX_ITEMS).map(todoLine);
  return ["### Todos", "", ...shown, ...more(s.todos.length, shown.length)].join("\n");
}

export function testSection(s: SessionState): string {
  const run = s.testRuns.at(-1);
  if (!run) return "### Last test run\n\n_No test run yet._";
  const status = run.timedOut ? "timed out" : run.exitCode === 0 ? "passed" : `failed (exit ${run.exitCode})`;
  const secs = (run.durationMs / 1000).toFixed(1);
  const head = `${inlineCode(run.command)} ${status} in ${secs} s on tree \`${run.treeHash.slice(0, 12)}\``;
  // The end of a test log is where the failures and the totals are.
  const output = run.summary.length > MAX_TEST_OUTPUT_CHARS ? `…${run.summary.slice(-MAX_TEST_OUTPUT_CHARS)}` : run.summary;
  return ["### Last test run", "", head, ...(output.trim() ? ["", codeBlock(output)] : [])].join("\n");
}

export function diffSection(s: SessionState): string {
  const d = s.latestDiff;
  if (!d) return "### Diff\n\n_No changes yet._";
  const head = `${d.filesChanged} files changed, +${d.insertions} −${d.deletions}`;
  const publish = ["", s.finishedPaths ? "Published (as finish accepted them):" : "Files the session may publish so far (written with file tools or by approved commands):", "", pathList(pathsToPublish(s))];
  return ["### Diff", "", head, ...(d.stat.trim() ? ["", codeBlock(clip(d.stat, MAX_STAT_CHARS))] : []), ...publish].join("\n");
}

export function usageSection(s: SessionState): string {
  const u = s.usage;
  const est = u.estimated ? " (estimated)" : "";
  const cost = u.costUsd === null ? `cost unknown (no price for model \`${s.model}\`)` : `cost ${formatUsd(u.costUsd)}${est}`;
  return [
    "### Usage",
    "",
    `${u.calls} LLM calls · ${formatInt(u.promptTokens)} prompt + ${formatInt(u.completionTokens)} completion tokens${est} · ${cost}`,
  ].join("\n");
}
