import type { SessionState } from "../session/state.js";
import { clip, inlineCode, oneLine } from "../safety/markdown.js";

/** How many published paths a comment or the check run lists before it says how many more. */
export const MAX_LISTED = 100;

/**
 * The paths a session will publish, as a markdown list: every one of them, up to a hundred (a human
 * approving a batch or reading the check run sees exactly what can reach the branch).
 */
export function pathList(paths: readonly string[]): string {
  if (paths.length === 0) return "_none_";
  const shown = paths.slice(0, MAX_LISTED).map((p) => `- ${inlineCode(clip(oneLine(p), 300))}`);
  if (paths.length > MAX_LISTED) shown.push(`- … and ${paths.length - MAX_LISTED} more`);
  return shown.join("\n");
}

/** What finish accepted, or else what the ledger makes publishable so far. */
export function pathsToPublish(s: SessionState): readonly string[] {
  return s.finishedPaths ?? s.publishablePaths;
}
