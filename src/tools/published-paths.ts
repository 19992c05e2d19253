import { isProtectedPath } from "../policy/index.js";
import type { ToolError } from "../session/types.js";
import type { ChangedPath } from "../workspace/types.js";

/**
 * The file tools refuse protected paths, but a command (an approved one, or the test command running
 * code the agent wrote) can write anywhere in the workspace. finish therefore judges the tree that
 * would be pushed as a whole: no change to a protected path, and no new gitlink (a directory made into
 * a nested repository is committed as a bare commit id, not as the files the tests ran on, and edits
 * inside it would not even change the tree hash).
 */
export function checkPublishedPaths(changes: readonly ChangedPath[], extraProtected: string[]): ToolError | null {
  for (const c of changes) {
    const glob = isProtectedPath(c.path, extraProtected);
    if (glob !== null) {
      return {
        code: "path_denied",
        message: `finish refused: the change touches ${c.path}, a protected path (matches \`${glob}\`) the agent may never write. Restore it to its original content (or delete it if it is new), then run_tests and finish again.`,
        details: { path: c.path, glob },
      };
    }
    if (c.mode === "160000") {
      return {
        code: "path_denied",
        message: `finish refused: ${c.path} is a nested git repository, which would be committed as a submodule pointer instead of its files. Remove its .git, then run_tests and finish again.`,
        details: { path: c.path, reason: "nested_repository" },
      };
    }
  }
  return null;
}
