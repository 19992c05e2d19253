import { FatalError } from "../errors/index.js";

/**
 * Why a workspace operation could not be done. Fatal for the session (it fails as `workspace_error`):
 * none of these is something the model can fix by trying again.
 */
export type WorkspaceErrorCode =
  /** A git command exited non-zero where success was required. */
  | "git_failed"
  /** The clone's .git holds configuration that could run code outside the sandbox. */
  | "unsafe_config"
  /** A branch, ref, identity or path the caller passed is malformed or ambiguous. */
  | "invalid_argument"
  /** The clone target exists and is not empty. */
  | "dir_not_empty"
  /** commit() without allowEmpty on a tree equal to its parent's. */
  | "nothing_to_commit"
  /** A stored patch does not apply to the base commit. */
  | "patch_failed"
  /** The working tree could not be put back to a snapshot after a command changed it. */
  | "rollback_failed"
  /** A git call or a walk of the tree did not finish within its time limit. */
  | "timeout"
  /** A special file (FIFO, socket, device) stands where git would have to read it. */
  | "special_file"
  /** The tree to commit is not the one the caller expected (the tree the test gate accepted). */
  | "tree_mismatch";

export class WorkspaceError extends FatalError {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
    /** git's stderr where there was one; never holds credentials (they travel in the environment). */
    readonly stderr?: string,
  ) {
    super(message);
  }
  /** The same as `code`, under the name every Patchgate error uses. */
  get kind(): WorkspaceErrorCode {
    return this.code;
  }
}
