import { existsSync } from "node:fs";
import path from "node:path";
import { cutWritePaths } from "../session/cut-write-paths.js";
import { rm } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { Ledger, type EventListener } from "../store/ledger.js";
import type { SessionStore } from "../store/types.js";
import type { SessionSettings } from "../session/events.js";
import type { TaskInput } from "../session/types.js";
import type { GitAuth, Workspace } from "../workspace/types.js";
import { cloneWorkspace, openWorkspace } from "../workspace/clone.js";
import { gitLockFiles } from "../workspace/git-locks.js";
import { type GitWorkspace } from "../workspace/git-workspace.js";
import type { MirrorUse } from "../workspace/mirror-settings.js";
import { resourceLimits } from "./resource-limits.js";

const DEFAULT_SETTINGS: SessionSettings = { maxStepsPerResume: 40, limits: {} };

export interface CreateSessionInput {
  task: TaskInput;
  model: string;
  settings?: Partial<SessionSettings>;
  sessionId?: string;
  /** The repository config the session starts under (see `session_created`). */
  repoConfig?: Record<string, unknown>;
}

/** Records `session_created`; nothing else happens until the workspace is prepared and the session resumed. */
export async function createSession(store: SessionStore, input: CreateSessionInput, listeners: EventListener[] = []): Promise<Ledger> {
  const settings: SessionSettings = { ...DEFAULT_SETTINGS, ...input.settings, limits: { ...input.settings?.limits } };
  return Ledger.create(
    store,
    {
      type: "session_created",
      sessionId: input.sessionId ?? randomUUID(),
      task: input.task,
      model: input.model,
      settings,
      ...(input.repoConfig ? { repoConfig: input.repoConfig } : {}),
    },
    listeners,
  );
}

export interface WorkspaceSource {
  /** Repository path or URL. */
  source: string;
  /** Where the clone lives; must not exist yet for a first preparation. */
  dir: string;
  auth?: GitAuth;
  ref?: string;
  /** The tenant's mirror under the data directory (workspace/mirror.ts); URL sources only. */
  mirror?: MirrorUse;
}

/** Clones the repository and records the base commit: the session moves from `queued` to `planning`. */
export async function prepareWorkspace(ledger: Ledger, src: WorkspaceSource): Promise<Workspace> {
  const ws = await resourceLimits().clones.run(() => cloneWorkspace({ source: src.source, dir: src.dir, ref: src.ref, auth: src.auth, mirror: src.mirror }));
  await ledger.append({ type: "workspace_prepared", baseCommit: ws.baseCommit, workdir: src.dir });
  return ws;
}

/**
 * The workspace of a session that already has one, as the ledger recorded it. A clone on disk is
 * only a cache: another worker may have driven the session on since this one last held it
 * (scale-out), or a crash may have cut a write short, so a clone whose files (all but the ignored
 * ones) differ from base + the recorded patch is put back to it, and one that cannot be (it lacks the recorded base commit)
 * is replaced by a fresh clone at the base with the patch applied (DESIGN §2: rebuildable anywhere).
 */
export async function reopenWorkspace(ledger: Ledger, src: WorkspaceSource): Promise<Workspace> {
  const { baseCommit, latestDiff, publishablePaths } = ledger.state;
  if (!baseCommit) {
    // No workspace was recorded, so whatever is at `dir` is not the session's: a clone whose process
    // died after it was complete but before the ledger took it.
    await rm(src.dir, { recursive: true, force: true });
    return prepareWorkspace(ledger, src);
  }
  const patch = latestDiff?.patch ?? "";
  if (existsSync(`${src.dir}/.git`)) {
    const kept = await keptClone(src.dir, baseCommit, patch, [...new Set([...publishablePaths, ...cutWritePaths(ledger.state)])]);
    if (kept) return kept;
    await rm(src.dir, { recursive: true, force: true });
  }
  const ws = await resourceLimits().clones.run(() => cloneWorkspace({ source: src.source, dir: src.dir, ref: baseCommit, auth: src.auth, mirror: src.mirror }));
  if (patch.trim() !== "") await ws.applyPatch(patch);
  return ws;
}

/** The clone on disk brought to base + patch, or null when it cannot be (then it is cloned again). */
async function keptClone(dir: string, baseCommit: string, patch: string, paths: readonly string[]): Promise<GitWorkspace | null> {
  try {
    // A clone that reads objects from outside itself (an older Patchgate's, by reference to a mirror) is cloned again below.
    // So is one holding git's lock files: a git process died mid-write in it, and nothing of this
    // session's runs there now (its lease is ours), so the clone is a cache cut short, not state.
    if ((await gitLockFiles(path.join(dir, ".git"))).length > 0) return null;
    const ws = await openWorkspace(dir, baseCommit);
    // The whole tree is compared with base + patch, not only the paths the ledger names now: a write
    // cut on this disk may since have been answered by another worker, and then nothing names its path.
    await ws.restore(patch, paths);
    return ws;
  } catch {
    return null;
  }
}
