import type { SessionEvent } from "./events.js";

/**
 * Which paths an event makes publishable: a file tool's write, or the changes of a command a human
 * approved. Nothing else ever adds to what a session may publish.
 */
function publishedBy(e: SessionEvent): string[] {
  if (e.type === "file_written") return [e.path];
  if (e.type === "command_changed") return e.paths;
  return [];
}

/** The publishable paths once `events` are folded in, sorted, without duplicates. */
export function publishableAfter(paths: readonly string[], events: readonly SessionEvent[]): string[] {
  return [...new Set([...paths, ...events.flatMap(publishedBy)])].sort();
}
