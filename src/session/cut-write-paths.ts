import type { SessionState } from "./state.js";

/** The file tools whose arguments name the paths they write: `path`, and a move's `from` and `to`. */
const FILE_WRITERS: ReadonlySet<string> = new Set(["write_file", "edit_file", "delete_file", "move_file"]);

/**
 * The paths a file tool may have written before the process stopped, though the ledger holds no
 * record of the write: calls that started and have no result. A reopened clone must be compared with
 * the ledger on these too, or a cut call's write would survive into the resumed session unrecorded.
 */
export function cutWritePaths(s: SessionState): string[] {
  const started = new Set(s.openCalls.filter((c) => c.started && FILE_WRITERS.has(c.name)).map((c) => c.id));
  if (started.size === 0) return [];
  const paths = new Set<string>();
  for (const m of s.conversation) {
    if (m.role !== "assistant") continue;
    for (const call of m.toolCalls.filter((c) => started.has(c.id))) {
      for (const p of namedPaths(call.arguments)) paths.add(p);
    }
  }
  return [...paths];
}

function namedPaths(args: string): string[] {
  try {
    const v = JSON.parse(args) as Record<string, unknown>;
    return [v.path, v.from, v.to].filter((p): p is string => typeof p === "string" && p !== "").map((p) => p.replace(/^(\.\/)+/, ""));
  } catch {
    return [];
  }
}
