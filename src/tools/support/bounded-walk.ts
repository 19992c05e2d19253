import type { ToolError } from "../../session/types.js";
import { walkFiles, type SpecialEntry, type WalkEntry } from "../../workspace/tree-walk.js";
import { withDeadline } from "../../workspace/deadline.js";
import { WorkspaceError } from "../../workspace/workspace-error.js";

/** list_files and search_code give up on a walk after this long (a huge tree, a slow disk). */
const WALK_TIMEOUT_MS = 30_000;

export type WalkOutcome = { ok: true; skipped: string[] } | { ok: false; error: ToolError };

function described(s: SpecialEntry): string {
  return `${s.rel} (${s.viaSymlink ? "a symlink to a " : "a "}${s.kind})`;
}

/**
 * Visits the files under `start` the way the file tools see them, until `visit` returns false. Special
 * files are never visited, only named in `skipped`; the walk ends at the session's abort (rethrown)
 * or after WALK_TIMEOUT_MS, which is a result the model can act on.
 */
export async function walkForTool(
  root: string,
  start: string,
  signal: AbortSignal | undefined,
  visit: (entry: WalkEntry) => Promise<boolean> | boolean,
): Promise<WalkOutcome> {
  const skipped: string[] = [];
  try {
    await withDeadline("the walk", WALK_TIMEOUT_MS, signal, async (bounded) => {
      for await (const entry of walkFiles(root, start, { signal: bounded, onSpecial: (s) => skipped.push(described(s)) })) {
        if (!(await visit(entry))) return;
      }
    });
  } catch (e) {
    if (!(WorkspaceError.isInstance(e) && e.code === "timeout")) throw e;
    const where = start === "" ? "the repository" : start;
    return {
      ok: false,
      error: { code: "walk_timeout", message: `walking ${where} took more than ${WALK_TIMEOUT_MS / 1000} s; give a smaller directory as path.` },
    };
  }
  return { ok: true, skipped };
}
