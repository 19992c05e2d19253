import { readdir } from "node:fs/promises";
import path from "node:path";
import type { SetupCacheRecord } from "../session/types.js";
import type { SessionState } from "../session/state.js";
import type { Workspace } from "../workspace/types.js";
import type { DependencyCacheHandle } from "./dependency-store.js";
import { cacheOwner } from "./cache-owner.js";
import { cacheKey, setupInputBlobs } from "./cache-key.js";
import { createdBy, workspaceStatus, type WorkspaceStatus } from "./setup-outputs.js";

/** What the cache needs of a session's setup run: its tree, its owner and toolchains (the key), the handle. */
export interface SetupCacheContext {
  workspace: Pick<Workspace, "root" | "baseCommit">;
  state: Pick<SessionState, "task" | "toolchains">;
  dependencyCache?: DependencyCacheHandle;
  signal?: AbortSignal;
  /**
   * Nothing writes into a workspace file after setup, it can only replace one: the sandbox's runs
   * reach the workspace through a layer copied back by rename (sandbox/overlay-merge.ts), and the
   * file tools replace a file with another link (tools/support/text.ts). Only then may an entry link
   * the files setup made instead of copying them.
   */
  workspaceWritesReplace?: boolean;
}

/**
 * The dependency cache around one setup run (runs/test-setup.ts). It is used only where the setup
 * gets the network, i.e. on the maintainer's tree before the session changed anything, and an entry
 * is stored only after such a setup succeeded, when:
 * - the session's cache directory was empty when it started. Runs before setup (the plan phase's
 *   commands) share that directory, and what they put there must not reach other sessions;
 * - the setup changed no tracked file (an entry holds only what setup added);
 * - it added something.
 * An entry is "stored" once its contents are taken; it is in place when its commit ends, beside the
 * session (a crash before then leaves a miss, never half an entry).
 */
export interface SetupCache {
  readonly key: string;
  /** The entry put in place, or null (a miss, or a restore that failed and was undone). */
  restore(): Promise<SetupCacheRecord | null>;
  /** After a successful setup: stored, or why not. */
  store(): Promise<SetupCacheRecord>;
}

export async function openSetupCache(ctx: SetupCacheContext, command: string): Promise<SetupCache | null> {
  const handle = ctx.dependencyCache;
  if (!handle) return null;
  const root = ctx.workspace.root;
  const repo = await cacheOwner(ctx.state.task.source);
  if (repo === null) return null;
  const key = cacheKey({ repo, command, toolchains: ctx.state.toolchains ?? [] }, await setupInputBlobs(root, ctx.workspace.baseCommit, command, ctx.signal));
  const before: WorkspaceStatus = await workspaceStatus(root, ctx.signal);
  const cacheWasEmpty = handle.sessionCache === undefined || (await holdsNothing(handle.sessionCache));
  return {
    key,
    async restore() {
      try {
        const meta = await handle.store.restore(key, root, handle.sessionCache);
        return meta && { key, outcome: "restored", bytes: meta.bytes, paths: meta.paths };
      } catch {
        return null;
      }
    },
    async store() {
      const after = await workspaceStatus(root, ctx.signal);
      const paths = createdBy(before, after);
      const notStored = (reason: string): SetupCacheRecord => ({ key, outcome: "not_stored", reason });
      if (!cacheWasEmpty) return notStored("the session's cache directory was written to before setup");
      if (after.changed.length > 0) return notStored(`setup changed tracked files (${after.changed.slice(0, 3).join(", ")})`);
      if (paths.length === 0) return notStored("setup added nothing to the workspace");
      try {
        // What the entry holds is taken now, before any later run or call can change it; the rest (its
        // size, meta.json, the rename into place, eviction) needs no wait by the session.
        const taken = await handle.store.take({ key, repo, command, paths }, root, handle.sessionCache, { linkWorkspace: ctx.workspaceWritesReplace === true });
        handle.store.commitBeside(taken);
        return { key, outcome: "stored", paths };
      } catch (e) {
        return notStored(`storing failed: ${(e as Error).message}`);
      }
    },
  };
}

/** Nothing but empty directories (the HOME that session-cache.ts makes in it counts as nothing). */
async function holdsNothing(dir: string): Promise<boolean> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const inner = await readdir(path.join(dir, name)).catch(() => null);
    if (inner === null || inner.length > 0) return false;
  }
  return true;
}
