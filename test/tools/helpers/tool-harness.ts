import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../../src/config/repo-config.js";
import type { Sandbox } from "../../../src/sandbox/types.js";
import { fold } from "../../../src/session/reducer.js";
import { type SessionEvent, type SessionSettings } from "../../../src/session/events.js";
import { type SessionState } from "../../../src/session/state.js";
import type { PermissionMode, ToolResult } from "../../../src/session/types.js";
import type { CallGrant, ToolContext, ToolDefinition } from "../../../src/tools/tool.js";
import { planHash } from "../../../src/tools/support/plan-hash.js";
import type { Workspace } from "../../../src/workspace/types.js";

export interface HarnessOptions {
  mode?: PermissionMode;
  repoConfig?: RepoConfig;
  sandbox?: Sandbox | null;
  settings?: Partial<SessionSettings>;
}

const PLAN = { summary: "fixture plan", steps: ["do it"] };

/**
 * Runs tools the way the loop does (validate → precheck → execute) and folds the events they emit
 * into a real session ledger, so the next call sees the state those events produce.
 */
export class ToolHarness {
  readonly events: SessionEvent[];
  repoConfig: RepoConfig;
  sandbox: Sandbox | null;

  constructor(
    readonly workspace: Workspace,
    opts: HarnessOptions = {},
  ) {
    this.repoConfig = opts.repoConfig ?? DEFAULT_REPO_CONFIG;
    this.sandbox = opts.sandbox ?? null;
    const settings: SessionSettings = { maxStepsPerResume: 10, limits: {}, ...opts.settings };
    this.events = [
      { type: "session_created", sessionId: "s-tools", task: { title: "t", body: "b", source: { kind: "cli", repo: "r" } }, model: "m", settings },
      { type: "workspace_prepared", baseCommit: workspace.baseCommit, workdir: workspace.root },
    ];
    if ((opts.mode ?? "execute") === "execute") {
      const hash = planHash(PLAN);
      this.events.push({ type: "plan_submitted", plan: PLAN, hash }, { type: "plan_approved", hash, by: { login: "maint", via: "cli" } });
    }
  }

  get state(): SessionState {
    return fold(this.events);
  }

  ctx(): ToolContext {
    return { workspace: this.workspace, state: this.state, sandbox: this.sandbox, repoConfig: this.repoConfig };
  }

  /**
   * validate → precheck → execute; events are appended (and so checked by the reducer). `grant` is
   * what the loop would pass: the policy's allowance (as a reader or not) or a human's approval.
   */
  async call(tool: ToolDefinition, rawInput: unknown, grant?: CallGrant): Promise<{ result: ToolResult; events: SessionEvent[] }> {
    const input = tool.input.parse(rawInput);
    const refused = tool.precheck ? await tool.precheck(input, this.ctx()) : null;
    if (refused) return { result: { ok: false, error: refused }, events: [] };
    const outcome = await tool.execute(input, grant ? { ...this.ctx(), grant } : this.ctx());
    const events = outcome.events ?? [];
    this.events.push(...events);
    return { result: outcome.result, events };
  }

  push(...events: SessionEvent[]): void {
    this.events.push(...events);
  }
}

/** The error code of a failed result, or "ok". */
export function codeOf(r: ToolResult): string {
  return r.ok ? "ok" : r.error.code;
}

/** The data of a successful result; throws with the error otherwise, so a test fails loudly. */
export function dataOf<T = Record<string, unknown>>(r: ToolResult): T {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r.data as T;
}
