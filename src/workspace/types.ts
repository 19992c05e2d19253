import type { DiffInfo } from "../session/types.js";
import type { SpecialEntry } from "./tree-walk.js";
import type { ChangedPath } from "../policy/published-paths.js";

/** An isolated clone the agent works in. Every git call runs with hooks and fsmonitor disabled. */
export interface Workspace {
  /** realpath of the clone's root. */
  readonly root: string;
  /** The commit the session started from; diffs are against it. */
  readonly baseCommit: string;
  /**
   * The tree that would be published: the base commit with exactly `paths` (the ledger's publishable
   * paths) as they are in the working tree now. Test gate, diff, commit and publish guard all use it.
   */
  publishedTree(paths: readonly string[]): Promise<string>;
  /** Unified diff and stat of that tree against the base commit. */
  diff(paths: readonly string[]): Promise<DiffInfo>;
  /** Every path that tree adds, changes or deletes against the base commit. */
  changedPaths(paths: readonly string[]): Promise<ChangedPath[]>;
  /**
   * Snapshot of the whole working tree (untracked files included, ignored ones excluded unless listed
   * in `alsoPaths`), to compare and roll back to around a command. Not what is published.
   */
  treeHash(alsoPaths?: readonly string[]): Promise<string>;
  /** Paths whose content, mode or kind differs now from a snapshot treeHash(alsoPaths) returned. */
  changedSince(tree: string, alsoPaths?: readonly string[]): Promise<string[]>;
  /** Puts every file of the snapshot back as it was; returns the paths put back. */
  rollBack(tree: string, alsoPaths?: readonly string[]): Promise<string[]>;
  /** Commits the published tree of `opts.paths` on `branch` (created from base if absent); returns the commit sha. */
  commit(opts: CommitOptions): Promise<string>;
  /**
   * Which of `rels` (workspace-relative; a directory written with a trailing `/`) git ignores: build
   * outputs, caches, installed dependencies. A tracked file is never among them.
   */
  ignoredAmong(rels: readonly string[]): Promise<Set<string>>;
  /** Deletes the FIFOs, sockets and devices a command left in the tree git sees; returns them. */
  removeSpecialFiles(): Promise<SpecialEntry[]>;
  /** The same workspace, every operation of it stopped when `signal` aborts. */
  withSignal(signal: AbortSignal | undefined): Workspace;
  /**
   * Puts the working tree back to base + `patch` (a diff(paths) of an earlier state): tracked files
   * reset, untracked ones removed, ignored ones (installed dependencies) left alone unless in `paths`
   * (the ledger's publishable paths), then the patch. Returns the paths put back.
   */
  restore(patch: string, paths: readonly string[]): Promise<string[]>;
  /** The tree a commit records, read back from git (what a reviewer compares with the tested tree). */
  treeOf(commit: string): Promise<string>;
}

/** Defined beside the policy that judges which changed paths may be published. */
export type { ChangedPath };

export interface CommitOptions {
  branch: string;
  /** The ledger's publishable paths: the commit is the base plus these, nothing else. */
  paths: readonly string[];
  /** Refuse to commit unless the tree is this one (the tree the test gate accepted). */
  expectTree?: string;
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
