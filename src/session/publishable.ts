import type { SessionEvent } from "./events.js";

/**
 * What the ledger records as the content of a path a file tool deleted (or moved away): no content hash
 * can equal it, so a file that reappears there is not what was recorded.
 */
export const DELETED_CONTENT = "deleted";

/**
 * Which paths an event makes publishable: a file tool's write, delete or move (both ends), or the
 * changes of a command a human approved. Nothing else ever adds to what a session may publish.
 */
function publishedBy(e: SessionEvent): string[] {
  if (e.type === "file_written" || e.type === "file_deleted") return [e.path];
  if (e.type === "file_moved") return [e.from, e.to];
  if (e.type === "command_changed") return e.paths;
  return [];
}

/** The publishable paths once `events` are folded in, sorted, without duplicates. */
export function publishableAfter(paths: readonly string[], events: readonly SessionEvent[]): string[] {
  return [...new Set([...paths, ...events.flatMap(publishedBy)])].sort();
}
