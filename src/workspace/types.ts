import type { DiffInfo } from "../session/types.js";
import type { SpecialEntry } from "./tree-walk.js";

/** An isolated clone the agent works in. Every git call runs with hooks and fsmonitor disabled. */
export interface Workspace {
  /** realpath of the clone's root. */
  readonly root: string;
  /** The commit the session started from; diffs are against it. */
  readonly baseCommit: string;
  /** Unified diff and stat of the working tree (tracked and untracked files) against the base commit. */
  diff(): Promise<DiffInfo>;
  /** Content hash of the working tree, untracked files included, ignored files excluded; stable across runs. */
  treeHash(): Promise<string>;
  /** Every path the snapshot (the tree treeHash names) adds, changes or deletes against the base commit. */
  changedPaths(): Promise<ChangedPath[]>;
  /** Paths (not ignored) whose content, mode or kind differs now from the tree a treeHash() returned. */
  changedSince(tree: string): Promise<string[]>;
  /** Puts every file that is not ignored back as it was in that tree; returns the paths put back. */
  rollBack(tree: string): Promise<string[]>;
  /** Commits everything on `branch` (created from base if absent); returns the commit sha. */
  commit(opts: CommitOptions): Promise<string>;
  /** Deletes the FIFOs, sockets and devices a command left in the tree git sees; returns them. */
  removeSpecialFiles(): Promise<SpecialEntry[]>;
  /** The same workspace, every operation of it stopped when `signal` aborts. */
  withSignal(signal: AbortSignal | undefined): Workspace;
}

export interface ChangedPath {
  path: string;
  /** git's mode in the snapshot: 100644, 100755, 120000 (symlink), 160000 (gitlink); 000000 = deleted. */
  mode: string;
}

export interface CommitOptions {
  branch: string;
  message: string;
  author: { name: string; email: string };
  /** Lines appended as `Co-authored-by: name <email>` trailers. */
  coAuthors?: { name: string; email: string }[];
  /** Allow a commit with no changes (the plan branch). */
  allowEmpty?: boolean;
}

/** Per-call HTTP auth for git, passed as http.extraHeader config through the environment so it never lands in .git/config. */
export interface GitAuth {
  header: string;
}
