import type { z } from "zod";
import type { ActionRequest } from "../policy/types.js";
import type { RepoConfig } from "../config/repo-config.js";
import type { Sandbox } from "../sandbox/types.js";
import type { SessionEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { Decision, ExecutableConfigHit, PermissionMode, ToolError, ToolResult } from "../session/types.js";
import type { McpCallAudit } from "../session/mcp-records.js";
import type { IntegrityReportRecord } from "../session/test-integrity.js";
import type { GrantRequestRecord } from "../session/grants.js";
import type { Workspace } from "../workspace/types.js";
import type { DependencyCacheHandle } from "../depcache/index.js";
import type { OnRun } from "../runs/run-progress.js";

/**
 * On whose word a call runs: the policy allowed it (and whether as a reader, which then runs with the
 * workspace read-only), or a human approved it (`executableConfig`: with an explicit approval of the
 * executable configuration it writes). Absent = the policy, not as a reader.
 */
export type CallGrant = { by: "policy"; readOnly: boolean } | { by: "human"; executableConfig?: boolean };

export interface ToolContext {
  workspace: Workspace;
  /** Session state as it was before this call. */
  state: SessionState;
  /** null when no sandbox backend is available: commands are refused, never run bare. */
  sandbox: Sandbox | null;
  repoConfig: RepoConfig;
  signal?: AbortSignal;
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
  /** Told when a sandboxed run (setup, baseline, tests, a command) starts and ends: progress only. */
  onRun?: OnRun;
  grant?: CallGrant;
  /** Installed dependencies across sessions, for the setup step (depcache/); absent = not used. */
  dependencyCache?: DependencyCacheHandle;
}

/** A tool's answer plus the facts it established, which the loop appends to the ledger. */
export interface ToolOutcome {
  result: ToolResult;
  events?: SessionEvent[];
  /**
   * The call waits for a human instead of being answered: finish found the tests weakened, a
   * `test_integrity` request. The call stays open, `result` is not recorded, and the session parks.
   */
  hold?: { digest: string; report: IntegrityReportRecord };
  /** The call waits for a human's grant (request_grant): held open like `hold`, and the session parks in `awaiting_grant`. */
  grant?: { digest: string; request: GrantRequestRecord };
}

/**
 * `read` tools run in plan mode; `write` and `command` only after plan approval and through the
 * approval policy; `meta` (plan, todos, finish) only touch the ledger; `mcp` tools come from an
 * operator's MCP server and carry their own risk class in the request (policy/mcp-risk.ts).
 */
type ToolRisk = "read" | "write" | "command" | "meta" | "mcp";

/** What the call handler tells a tool's `audit` at each stage of a call (McpCallAudit lists the stages). */
export interface CallFact {
  stage: McpCallAudit["stage"];
  callId: string;
  input: unknown;
  decision: Decision;
  rule: string;
  /** `policy`, or the login of the human who decided. */
  by: string;
  durationMs?: number;
  result?: ToolResult;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Bumped whenever behaviour changes; recorded with every result so a replay knows what ran. */
  version: string;
  description: string;
  input: S;
  /** The JSON Schema the model is shown, when it is not derived from `input` (MCP tools bring their own). */
  parameters?: Record<string, unknown>;
  risk: ToolRisk;
  mutatesWorkspace: boolean;
  /**
   * Running the call again, even after a run that was cut off, ends in the same state as running it
   * once. A resume re-runs such a call when the process died during it (writes excepted: see
   * agent/open-calls.ts); any other interrupted call is answered `interrupted`.
   */
  idempotent: boolean;
  /** Modes in which the tool is offered to the model. */
  modes: PermissionMode[];
  /**
   * Refusals that do not depend on the policy (path confinement, edit context, bad arguments), judged
   * before the policy so that a human is never asked to approve something the runtime would refuse.
   */
  precheck?(input: z.infer<S>, ctx: ToolContext): Promise<ToolError | null>;
  /**
   * The answer to a call that would change nothing (a write of the bytes already there): given at once,
   * after precheck and before the policy, so nobody is asked to approve nothing. Null: the call changes something.
   */
  unchanged?(input: z.infer<S>, ctx: ToolContext): Promise<ToolResult | null>;
  /** What the policy judges. */
  request(input: z.infer<S>, ctx: ToolContext): ActionRequest;
  /**
   * For a write: whether it changes executable configuration (a path of the table, or an executable
   * key of a manifest), judged on the content it would write. Absent: the request's path alone decides.
   */
  executableConfig?(input: z.infer<S>, ctx: ToolContext): Promise<ExecutableConfigHit | null>;
  /** Shown to a human when the policy says `ask` (diff preview, argv). */
  preview?(input: z.infer<S>, ctx: ToolContext): Promise<string>;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
  /**
   * Audit events for a stage of a call, appended by the call handler: the policy's refusal, the park, the
   * start (before execute runs: write-ahead), the result, a human's denial, an interruption.
   */
  audit?(fact: CallFact): SessionEvent[];
}

/** What a tool does to the world: declared once, where a reader of the tool sees it first. */
export type ToolEffect = Pick<ToolDefinition, "risk" | "mutatesWorkspace" | "idempotent">;

export function ok(data: unknown, truncated = false): ToolResult {
  return truncated ? { ok: true, data, truncated } : { ok: true, data };
}

/** The answer of a write whose content equals the file's: `unchanged` gives it. */
export function noChange(rel: string): ToolResult {
  return ok({ path: rel, written: false, note: `${rel} already has exactly this content: nothing was written` });
}

export function fail(code: string, message: string, details?: unknown): ToolResult {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}
