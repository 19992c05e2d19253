import { existsSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { Ledger, type EventListener } from "../store/ledger.js";
import type { SessionStore } from "../store/types.js";
import type { SessionSettings } from "../session/events.js";
import type { TaskInput } from "../session/types.js";
import type { GitAuth, Workspace } from "../workspace/types.js";
import { cloneWorkspace, openWorkspace } from "../workspace/index.js";

export const DEFAULT_SETTINGS: SessionSettings = { maxStepsPerResume: 40, limits: {} };

export interface CreateSessionInput {
  task: TaskInput;
  model: string;
  settings?: Partial<SessionSettings>;
  sessionId?: string;
}

/** Records `session_created`; nothing else happens until the workspace is prepared and the session resumed. */
export async function createSession(store: SessionStore, input: CreateSessionInput, listeners: EventListener[] = []): Promise<Ledger> {
  const settings: SessionSettings = { ...DEFAULT_SETTINGS, ...input.settings, limits: { ...input.settings?.limits } };
  return Ledger.create(
    store,
    { type: "session_created", sessionId: input.sessionId ?? randomUUID(), task: input.task, model: input.model, settings },
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
}

/** Clones the repository and records the base commit: the session moves from `queued` to `planning`. */
export async function prepareWorkspace(ledger: Ledger, src: WorkspaceSource): Promise<Workspace> {
  const ws = await cloneWorkspace({ source: src.source, dir: src.dir, ref: src.ref, auth: src.auth });
  await ledger.append({ type: "workspace_prepared", baseCommit: ws.baseCommit, workdir: src.dir });
  return ws;
}

/**
 * The workspace of a session that already has one: the clone on disk when it survived, otherwise a fresh
 * clone at the recorded base commit with the last recorded patch applied (DESIGN §2: rebuildable anywhere).
 */
export async function reopenWorkspace(ledger: Ledger, src: WorkspaceSource): Promise<Workspace> {
  const { baseCommit, latestDiff } = ledger.state;
  if (!baseCommit) return prepareWorkspace(ledger, src);
  if (existsSync(`${src.dir}/.git`)) return openWorkspace(src.dir, baseCommit);
  const ws = await cloneWorkspace({ source: src.source, dir: src.dir, ref: baseCommit, auth: src.auth });
  if (latestDiff && latestDiff.patch.trim() !== "") await ws.applyPatch(latestDiff.patch);
  return ws;
}
