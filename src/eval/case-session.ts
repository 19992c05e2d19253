import path from "node:path";
import { autoApproveWrites } from "../agent/approvals.js";
import type { LLMClient } from "../agent/llm/types.js";
import type { ResumeOptions } from "../agent/runtime-options.js";
import { createSession, prepareWorkspace, reopenWorkspace } from "../agent/session-service.js";
import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import type { Sandbox } from "../sandbox/types.js";
import type { StoredEvent } from "../session/events.js";
import { Ledger } from "../store/ledger.js";
import { SqliteSessionStore } from "../store/sqlite-store.js";
import type { SessionStore } from "../store/types.js";
import type { EvalCase } from "./case-schema.js";
import { driveCase } from "./case-driver.js";
import type { FixtureRepo } from "./fixture-repo.js";
import { EVAL_APPROVER, ScriptedHuman } from "./scripted-human.js";
import { replaySession, type ReplayResult } from "./replay/replay-session.js";
import { parseMcpConfig } from "../mcp/index.js";
import type { McpRuntime } from "../mcp/index.js";

/** The case's MCP servers as an operator's config beside the case file (their working directory). */
function caseMcp(c: EvalCase): McpRuntime | undefined {
  return c.mcp ? { config: parseMcpConfig(c.mcp, path.join(c.dir, "case.yaml")) } : undefined;
}

/** A deliberately altered runtime (a replaced tool or rule set), to prove a case notices the change. */
export type RuntimeVariant = Pick<ResumeOptions, "tools" | "rules" | "compaction">;

export interface CaseSessionInput {
  c: EvalCase;
  fixture: FixtureRepo;
  /** The case's scratch directory: the SQLite file and the workspaces live here. */
  dir: string;
  llm: LLMClient;
  sandbox: Sandbox;
  fallback: "stop" | "approve";
  runtime?: RuntimeVariant;
  /** Replay the session from its record once it has run (replay/replay-session.ts), with the same runtime. */
  replay?: boolean;
}

export interface CaseSession {
  sessionId: string;
  /** As loaded back from the store file at the end: the durable record, not the in-memory copy. */
  events: StoredEvent[];
  /** The workspace the session ended in (a rebuilt one after a restart). */
  workspaceRoot: string;
  restarts: number;
  notes: string[];
  replay?: ReplayResult;
}

/**
 * Runs the case's session through the real runtime: SQLite store, resume/park/answer/publish,
 * policy, tools and sandbox. After answering a park listed in `restart_store` it does what a new
 * process would: closes the store, reopens the file, loads a new Ledger from the events, rebuilds
 * the workspace in a fresh directory from the base commit and the recorded patch, and resumes —
 * so an approved batch is executed by the new process, from the stored approval alone.
 */
export async function runCaseSession(input: CaseSessionInput): Promise<CaseSession> {
  const { c, fixture, llm } = input;
  // The name `openStore` uses, so a kept case can be inspected with `patchgate show <id> --data-dir <dir>`.
  const dbFile = path.join(input.dir, "patchgate.sqlite");
  let store: SessionStore = SqliteSessionStore.open(dbFile);
  try {
    let ledger = await createSession(store, {
      task: { title: c.task.title, body: c.task.body, source: { kind: "eval", repo: c.id } },
      model: llm.model,
      settings: {
        maxStepsPerResume: c.settings.max_steps_per_resume,
        limits: { maxSteps: c.settings.max_steps, maxTokens: c.settings.max_tokens, maxCostUsd: c.settings.max_cost_usd },
        testCommand: fixture.repoConfig.test,
        testCommandSource: fixture.repoConfig.test ? REPO_CONFIG_PATH : undefined,
        ...(c.unattended ? { unattended: true } : {}),
      },
    });
    const source = { source: fixture.path, dir: path.join(input.dir, "workspace-0") };
    let ws = await prepareWorkspace(ledger, source);
    if (c.auto_approve_writes) await autoApproveWrites(ledger, EVAL_APPROVER);

    const human = new ScriptedHuman(c.approvals, input.fallback, c.restart_store);
    let restarts = 0;
    for (let trigger = "eval"; ;) {
      const opts: ResumeOptions = { llm, sandbox: input.sandbox, workspace: ws, repoConfig: fixture.repoConfig, trigger, mcp: caseMcp(c), ...input.runtime };
      const result = await driveCase(ledger, ws, opts, human);
      if (result.kind !== "restart") break;
      await store.close();
      store = SqliteSessionStore.open(dbFile);
      ledger = await Ledger.open(store, ledger.sessionId);
      restarts += 1;
      ws = await reopenWorkspace(ledger, { source: fixture.path, dir: path.join(input.dir, `workspace-${restarts}`) });
      trigger = `${result.trigger} (after restart)`;
    }
    const events = await store.load(ledger.sessionId);
    const replay = input.replay ? await replayCase(input, events) : undefined;
    return { sessionId: ledger.sessionId, events, workspaceRoot: ws.root, restarts, notes: human.notes, ...(replay && { replay }) };
  } finally {
    await store.close();
  }
}

/** The case's session run again from its record alone, in a fresh clone of the fixture, under the same runtime. */
function replayCase(input: CaseSessionInput, events: StoredEvent[]): Promise<ReplayResult> {
  const { c, fixture, sandbox, runtime } = input;
  return replaySession({
    events,
    source: fixture.path,
    dir: path.join(input.dir, "replay"),
    runtime: async () => ({ sandbox, repoConfig: fixture.repoConfig, mcp: caseMcp(c), ...runtime }),
  });
}
