import type { SessionState } from "../../session/state.js";
import { clip } from "../../safety/markdown.js";
import { code, strong, type Inline } from "./doc.js";
import { duration, shortHash } from "./words.js";

const MAX_NAMES = 20;
const MAX_NAME = 200;

function names(list: readonly string[]): Inline[] {
  const shown = list.slice(0, MAX_NAMES).flatMap((n, i): Inline[] => [...(i > 0 ? [", "] : []), code(clip(n, MAX_NAME))]);
  return list.length > MAX_NAMES ? [...shown, ` and ${list.length - MAX_NAMES} more`] : shown;
}

/**
 * Evidence items about what the session found before it changed anything: the setup's outcome, the
 * baseline run on the base tree, and the failures finish let through as pre-existing
 * (`gate: no_new_failures`) — a reviewer must see those beside the deciding run.
 */
export function baselineItems(s: SessionState): Inline[][] {
  const items: Inline[][] = [];
  if (s.setup) {
    const outcome = s.setup.passed ? "passed" : s.setup.exitCode === null ? "timed out or was killed" : `failed (exit ${s.setup.exitCode})`;
    items.push(["Setup: ", code(s.setup.command), ` ${outcome} in ${duration(s.setup.durationMs)}${s.setup.network ? ", with network" : ""}`]);
  }
  const b = s.baseline;
  if (b) {
    const passed = b.exitCode === 0 && !b.timedOut;
    const outcome = b.timedOut ? "timed out" : passed ? "passed" : `failed (exit ${b.exitCode})`;
    const failing: Inline[] = passed ? [] : b.failing ? [", failing already: ", ...names(b.failing)] : [", its output names no failing test"];
    items.push(["Baseline (before any change, tree ", code(shortHash(b.treeHash)), "): ", code(b.command), ` ${outcome}`, ...failing]);
  }
  if (s.preExistingFailures.length > 0) {
    items.push([
      strong(`⚠ Accepted with ${s.preExistingFailures.length} pre-existing failure${s.preExistingFailures.length === 1 ? "" : "s"}`),
      " (gate `no_new_failures`; they failed on the base tree too): ",
      ...names(s.preExistingFailures),
    ]);
  }
  return items;
}
