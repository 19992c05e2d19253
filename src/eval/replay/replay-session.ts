import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ResumeOptions } from "../../agent/runtime-options.js";
import { createSession, prepareWorkspace } from "../../agent/session-service.js";
import type { StoredEvent } from "../../session/events.js";
import { SqliteSessionStore } from "../../store/sqlite-store.js";
import type { Workspace } from "../../workspace/types.js";
import { driveCase } from "../case-driver.js";
import { firstDivergence, treeDivergence, type Divergence } from "./compare.js";
import { readRecording, recordedTree } from "./recording.js";
import { ReplayHuman } from "./replay-human.js";
import { ReplayLLM } from "./replay-llm.js";

/** What a resume needs besides the model and the clone: the sandbox, the repository's config, the runtime's variants. */
type ReplayRuntime = Omit<ResumeOptions, "llm" | "workspace" | "trigger">;

export interface ReplayInput {
  /** The recorded session, as the store holds it. */
  events: readonly StoredEvent[];
  /** The repository the session worked on (a path or URL): it must hold the recorded base commit. */
  source: string;
  /** A directory of the replay's own (made if missing): its store and its clone go there. */
  dir: string;
  /** Given the fresh clone, the runtime to resume with: the same the session had. */
  runtime: (ws: Workspace) => Promise<ReplayRuntime>;
}

export interface ReplayResult {
  same: boolean;
  firstDivergence?: Divergence;
  /** The tree the replay published (or had its finish accepted on); null when it did neither. */
  treeId: string | null;
  recordedTreeId: string | null;
  /** The replay's own session, in its own store under `dir`. */
  sessionId: string;
  events: StoredEvent[];
}

/**
 * Runs a recorded session again, in a fresh clone at its base commit, through the whole runtime
 * (policy, gates, sandboxed runs, test gate, local publication): every model call is answered with
 * the recorded answer and every park with the recorded human decision. Then the replay's events are
 * compared with the recording's (compare.ts says which facts count) and so are the published trees.
 * The first difference is the result; the model and GitHub are never asked anything.
 */
export async function replaySession(input: ReplayInput): Promise<ReplayResult> {
  const rec = readRecording(input.events);
  mkdirSync(input.dir, { recursive: true });
  const store = SqliteSessionStore.open(path.join(input.dir, "replay.sqlite"));
  try {
    const ledger = await createSession(store, {
      task: rec.task,
      model: rec.model,
      settings: rec.settings,
      ...(rec.repoConfig && { repoConfig: rec.repoConfig }),
    });
    const ws = await prepareWorkspace(ledger, { source: input.source, dir: path.join(input.dir, "workspace"), ref: rec.baseCommit });
    if (rec.preliminaries.length > 0) await ledger.append(...rec.preliminaries);
    const human = new ReplayHuman(rec.decisions);
    const llm = new ReplayLLM(rec.turns, rec.summaries, rec.model);
    await driveCase(ledger, ws, { ...(await input.runtime(ws)), llm, workspace: ws, trigger: "replay" }, human);
    const events = await store.load(ledger.sessionId);
    const treeId = recordedTree(events);
    const recordedTreeId = recordedTree(input.events);
    const divergence =
      firstDivergence(input.events, events) ??
      (human.mismatch && { ...human.mismatch, what: "the recorded human decision does not fit the replay's park" }) ??
      treeDivergence(recordedTreeId, treeId, lastSeq(input.events));
    return { same: divergence === null, ...(divergence && { firstDivergence: divergence }), treeId, recordedTreeId, sessionId: ledger.sessionId, events };
  } finally {
    await store.close();
  }
}

function lastSeq(events: readonly StoredEvent[]): number {
  return events.at(-1)?.seq ?? 0;
}
