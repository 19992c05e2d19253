import { isProtectedPath } from "./path-confinement.js";
import type { ToolError } from "../session/types.js";

/** A path a commit would change, as git's snapshot of the workspace lists it. */
export interface ChangedPath {
  path: string;
  /** git's mode in the snapshot: 100644, 100755, 120000 (symlink), 160000 (gitlink); 000000 = deleted. */
  mode: string;
}

/**
 * A file a file tool wrote is published with the content a human was shown. Something else may have
 * changed it since (the setup step rewriting a lockfile the agent wrote, a test's output landing on an
 * ignored path the agent wrote): then finish is refused until the agent writes it again. `actual` is
 * each path's content hash now, null when it is no regular file.
 */
export function checkWrittenContent(written: Readonly<Record<string, string>>, actual: Readonly<Record<string, string | null>>): ToolError | null {
  const changed = Object.keys(written)
    .filter((p) => actual[p] !== written[p])
    .sort();
  if (changed.length === 0) return null;
  return {
    code: "written_file_changed",
    message: `finish refused: ${changed.join(", ")} changed after you wrote ${changed.length === 1 ? "it" : "them"} (not by a file tool), so what would be published is not what was reviewed. Read ${changed.length === 1 ? "it" : "them"}, write the content you mean with write_file or edit_file, run_tests, and finish again.`,
    details: { paths: changed },
  };
}

/** A publishable path that is a directory (a nested repository), a FIFO or a path behind a symlink cannot be published as what was written. */
export function checkPublishable(unpublishable: readonly string[]): ToolError | null {
  if (unpublishable.length === 0) return null;
  return {
    code: "path_denied",
    message: `finish refused: ${unpublishable.join(", ")} ${unpublishable.length === 1 ? "is" : "are"} no longer a file (a directory, a nested repository, a special file, or behind a symlink), so ${unpublishable.length === 1 ? "it" : "they"} cannot be published as written. Make ${unpublishable.length === 1 ? "it" : "them"} a file again or delete ${unpublishable.length === 1 ? "it" : "them"}, run_tests, and finish again.`,
    details: { paths: [...unpublishable], reason: "not_a_file" },
  };
}

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
