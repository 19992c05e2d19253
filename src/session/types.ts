/** Value types shared by events and state. */

export type PermissionMode = "plan" | "execute";

export type Phase =
  | "queued"
  | "planning"
  | "awaiting_plan_approval"
  | "executing"
  | "awaiting_write_approval"
  | "publishing"
  | "done"
  | "failed"
  | "cancelled";

export const TERMINAL_PHASES: readonly Phase[] = ["done", "failed", "cancelled"];

/** Why a session ended badly. Each is a word a maintainer (and the eval classifier) can act on. */
export type FailureReason =
  | "llm_empty"
  | "llm_error"
  | "loop_limit"
  | "budget_exceeded"
  | "workspace_error"
  | "config_invalid"
  | "publish_failed"
  | "internal";

export interface TaskInput {
  title: string;
  body: string;
  /** Where the task came from; GitHub fields are absent for local CLI runs. */
  source: {
    kind: "cli" | "github" | "eval";
    repo: string;
    issueNumber?: number;
    requester?: string;
    installationId?: number;
  };
}

export interface Plan {
  summary: string;
  steps: string[];
}

export type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";

export interface Todo {
  id: string;
  content: string;
  status: TodoStatus;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when the provider returned no usage and the numbers are a tokenizer estimate. */
  estimated: boolean;
}

export type Decision = "allow" | "ask" | "deny";

/** A tool call the policy marked `ask`, waiting for a human. */
export interface PendingCall {
  callId: string;
  tool: string;
  /** Arguments after zod validation. */
  input: unknown;
  /** Human-readable preview: a diff for writes, argv for commands. */
  preview: string;
  rule: string;
}

export interface PendingApproval {
  digest: string;
  calls: PendingCall[];
  status: "pending" | "approved" | "denied";
  denyReason?: string;
  /** Call ids already executed or answered after the decision (resume skips them). */
  settledCallIds: string[];
}

export interface FileContext {
  /** sha256 of the content when the file was last read or written by the agent. */
  hash: string;
  step: number;
}

export interface TestRun {
  command: string;
  exitCode: number | null;
  treeHash: string;
  durationMs: number;
  timedOut: boolean;
  /** Last lines of output and failing test names where the runner prints them. */
  summary: string;
}

export type ToolResult =
  | { ok: true; data: unknown; truncated?: boolean }
  | { ok: false; error: ToolError; truncated?: boolean };

/** A model-visible error: goes back as the tool result, the session continues. */
export interface ToolError {
  code: string;
  message: string;
  details?: unknown;
}

export interface DiffInfo {
  stat: string;
  patch: string;
  filesChanged: number;
  insertions: number;
  deletions: number;
}

export interface Approver {
  login: string;
  via: "cli" | "comment" | "review" | "label" | "check_run" | "eval" | "auto";
}
