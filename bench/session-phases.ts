/**
 * Where a session's wall time went, from its ledger alone: every event carries the time it was
 * appended, and the runs and calls carry their own durations. The time between two events is
 * charged to the phase the later event closes (a clone ends in `workspace_prepared`, a snapshot
 * and diff in `diff_updated`), less the durations the event reports (the setup, the test run, the
 * model's latency), which are the work the session must do and are counted apart.
 */
import type { StoredEvent } from "../src/session/events.js";

/** Patchgate's own phases, and the work it does not own (setup, tests, model). */
export type Phase =
  | "setup"
  | "tests"
  | "model"
  | "start"
  | "clone"
  | "toolchains"
  | "resume (repository config, sandbox choice, limits)"
  | "around setup (sandbox, dependency cache)"
  | "around baseline (sandbox, snapshot)"
  | "steps (prompt, policy, ledger)"
  | "tools (beyond test runs)"
  | "snapshots and diffs"
  | "integrity gate"
  | "finish judgement"
  | "publication"
  | "end";

export const WORK: readonly Phase[] = ["setup", "tests", "model"];

/** The phase that the gap before an event of this type belongs to. */
function phaseBefore(type: StoredEvent["type"]): Phase {
  switch (type) {
    case "session_created":
      return "start";
    case "workspace_prepared":
      return "clone";
    case "toolchains_resolved":
    case "tool_versions":
    case "instructions_loaded":
      return "toolchains";
    case "resumed":
    case "limits_configured":
      return "resume (repository config, sandbox choice, limits)";
    case "setup_run":
      return "around setup (sandbox, dependency cache)";
    case "baseline_run":
      return "around baseline (sandbox, snapshot)";
    case "tool_result":
      return "tools (beyond test runs)";
    case "diff_updated":
      return "snapshots and diffs";
    case "integrity_checked":
    case "integrity_requested":
      return "integrity gate";
    case "finish_accepted":
      return "finish judgement";
    case "published":
    case "receipt_recorded":
    case "branch_claimed":
    case "branch_pushed":
    case "branch_push_intended":
      return "publication";
    default:
      return "steps (prompt, policy, ledger)";
  }
}

export type Breakdown = Partial<Record<Phase, number>>;

const add = (b: Breakdown, p: Phase, ms: number) => (b[p] = (b[p] ?? 0) + ms);

/**
 * The session's phases in ms. `startedAt` and `endedAt` (epoch ms) bound the whole run as its caller
 * saw it: the time before the first event is "start", after the last "end". A test run inside a
 * tool call is counted as tests, and only the rest of the call as the tool's.
 */
export function breakdown(events: readonly StoredEvent[], startedAt: number, endedAt: number): Breakdown {
  const b: Breakdown = {};
  let prev = startedAt;
  for (const e of events) {
    const at = Date.parse(e.at);
    let gap = at - prev;
    prev = at;
    if (e.type === "setup_run") {
      add(b, "setup", e.durationMs);
      gap -= e.durationMs;
    } else if (e.type === "baseline_run") {
      add(b, "tests", e.durationMs);
      gap -= e.durationMs;
    } else if (e.type === "test_run") {
      // Appended inside the run_tests (or finish) call; its tool_result takes the rest of the call.
      add(b, "tests", e.durationMs);
      gap -= e.durationMs;
    } else if (e.type === "llm_called") {
      add(b, "model", e.latencyMs);
      gap -= e.latencyMs;
    }
    add(b, phaseBefore(e.type), gap);
  }
  add(b, "end", endedAt - prev);
  return b;
}

/** The work the session must do (setup, test runs, model) and the rest: Patchgate's own. */
export function split(b: Breakdown): { workMs: number; ownMs: number } {
  let workMs = 0;
  let ownMs = 0;
  for (const [phase, ms] of Object.entries(b) as [Phase, number][]) {
    if (WORK.includes(phase)) workMs += ms;
    else ownMs += ms;
  }
  return { workMs, ownMs };
}

/** The median of each phase over sessions (a phase a session lacks counts as 0 there). */
export function medianBreakdown(all: readonly Breakdown[]): Breakdown {
  const phases = new Set(all.flatMap((b) => Object.keys(b) as Phase[]));
  const out: Breakdown = {};
  for (const p of phases) {
    const xs = all.map((b) => b[p] ?? 0).sort((a, c) => a - c);
    const n = xs.length;
    out[p] = n % 2 ? xs[(n - 1) / 2]! : (xs[n / 2 - 1]! + xs[n / 2]!) / 2;
  }
  return out;
}

/** "clone 1.2 s, publication 0.8 s, …": Patchgate's own phases, largest first. */
export function breakdownText(b: Breakdown): string {
  return (Object.entries(b) as [Phase, number][])
    .filter(([p]) => !WORK.includes(p))
    .sort((x, y) => y[1] - x[1])
    .map(([p, ms]) => `${p} ${(ms / 1000).toFixed(2)} s`)
    .join(", ");
}

/** The `n` longest gaps between consecutive events, "a → b 1.23 s", to show what a phase holds. */
export function longestGaps(events: readonly StoredEvent[], n: number): string[] {
  const gaps = events.slice(1).map((e, i) => ({ from: events[i]!.type, to: e.type, ms: Date.parse(e.at) - Date.parse(events[i]!.at) }));
  return gaps
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((g) => `${g.from} → ${g.to} ${(g.ms / 1000).toFixed(2)} s`);
}
