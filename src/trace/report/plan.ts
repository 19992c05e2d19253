import type { Plan, Todo } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { heading, numbered, para, withCode, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { shortHash } from "./words.js";

/**
 * The plan, once: its summary as prose, then its steps as the only list. Models often repeat the
 * steps inside the summary; those lines are dropped from the summary so nothing is shown twice.
 */
const MAX_SUMMARY_CHARS = 3000;
const MAX_STEPS = 50;
const MAX_ITEM_CHARS = 300;

// "1. ", "2) ", "- ", "* ", "Step 3: " in front of a repeated step.
const MARKER = /^\s*(?:[-*+•]|\d+[.)]|step\s+\d+\s*[:.)-]?)\s*/i;
const norm = (s: string): string => s.replace(MARKER, "").replace(/[`*_]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

/** The summary's lines without the ones that restate a step. */
export function summaryWithoutSteps(plan: Plan): string[] {
  const steps = new Set(plan.steps.map(norm));
  return plan.summary.split(/\r?\n/).filter((line) => !steps.has(norm(line)));
}

/**
 * The summary as paragraphs: lines of prose are joined, a line that looks like a list item stays a
 * line of its own (as literal text: it can never turn into a list that merges with the steps).
 */
function paragraphs(lines: string[]): Block[] {
  const out: Block[] = [];
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) out.push(para(...withCode(prose.join(" "))));
    prose = [];
  };
  for (const raw of clip(lines.join("\n"), MAX_SUMMARY_CHARS).split("\n")) {
    const line = raw.trim();
    if (line === "") flush();
    else if (MARKER.test(line)) {
      flush();
      out.push(para(...withCode(line)));
    } else prose.push(line);
  }
  flush();
  return out;
}

export function planBlocks(v: SessionView): Block[] {
  const plan = v.state.plan;
  if (!plan) return [];
  const approved = v.state.approvedPlanHash !== null && v.state.approvedPlanHash === v.state.planHash;
  const title: Inline[] = [`Plan${v.state.planHash ? ` ${shortHash(v.state.planHash)}` : ""}${approved ? " (approved)" : ""}`];
  const steps = plan.steps.slice(0, MAX_STEPS).map((s): Inline[] => withCode(clip(s, MAX_ITEM_CHARS)));
  if (plan.steps.length > MAX_STEPS) steps.push([`… and ${plan.steps.length - MAX_STEPS} more steps`]);
  return [heading(3, ...title), ...paragraphs(summaryWithoutSteps(plan)), ...(steps.length > 0 ? [numbered(steps)] : [])];
}

const STATUS: Record<Todo["status"], string> = { completed: "", in_progress: " (in progress)", pending: "", cancelled: " (cancelled)" };

/** Todos only when the session used them. */
export function todoBlocks(v: SessionView): Block[] {
  const todos = v.state.todos;
  if (todos.length === 0) return [];
  const shown = todos
    .slice(0, MAX_STEPS)
    .map((t) => ({ done: t.status === "completed", text: [...withCode(clip(t.content, MAX_ITEM_CHARS)), STATUS[t.status]] }));
  const rest = todos.length > MAX_STEPS ? [para(`… and ${todos.length - MAX_STEPS} more todos`)] : [];
  return [heading(3, "Todos"), { kind: "tasks", items: shown }, ...rest];
}
