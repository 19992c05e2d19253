import type { Message } from "./messages.js";
import type { IntegrityChecked, IntegrityRequest } from "./test-integrity.js";
import type { SessionBudget } from "./budget-park.js";
import type { SessionSettings } from "./events.js";
import type { Grant, GrantRequest } from "./grants.js";
import type {
  BlockedWork,
  DiffInfo,
  FailureReason,
  FileContext,
  PendingApproval,
  PermissionMode,
  BlockedReason,
  Phase,
  Plan,
  RepoInstructions,
  TaskInput,
  TestRun,
  Todo,
  TokenUsage,
  SetupRecord,
  ToolchainRecord,
  ToolResult,
} from "./types.js";

export interface BranchLease {
  branch: string;
  /** The branch's head as Patchgate last saw it (pushed or rebuilt on); null = must not exist. */
  head: string | null;
  /** Every commit Patchgate pushed to this branch, in this session and the ones before it. */
  ours: string[];
}

export interface OpenCall {
  id: string;
  name: string;
  /** A `tool_started` was recorded: the call may have had an effect before the process stopped. */
  started: boolean;
}

/** Everything the runtime knows about a session, derived from its events and nothing else. */
export interface SessionState {
  sessionId: string;
  task: TaskInput;
  model: string;
  settings: SessionSettings;
  /** `session_created`'s config snapshot; null for sessions that recorded none (the CLI's, the eval's). */
  repoConfig: Record<string, unknown> | null;
  mode: PermissionMode;
  phase: Phase;
  baseCommit: string | null;
  workdir: string | null;
  plan: Plan | null;
  planHash: string | null;
  /** Hash of the last plan a human approved (null until approval). */
  approvedPlanHash: string | null;
  todos: Todo[];
  pending: PendingApproval | null;
  /** The last `test_integrity` request and its decision (a new request replaces it). */
  integrity: IntegrityRequest | null;
  /** The operator's budget as it applies to this session: what humans added, and the park it waits in. */
  budget: SessionBudget;
  /** The test-integrity verdict of the accepted finish; null before one (or after a rebase sends the session back). */
  integrityChecked: IntegrityChecked | null;
  /** The last grant request (request_grant) and its decision (a new request replaces it). */
  grantRequest: GrantRequest | null;
  /** Grants approved in this session, oldest first: they end with it. */
  grants: Grant[];
  autoApproveWrites: boolean;
  /** path → content hash + step of the agent's last read or write of it. */
  fileContexts: Record<string, FileContext>;
  /** Diff of the published tree (base + publishablePaths) against the base commit. */
  latestDiff: DiffInfo | null;
  /**
   * What may be published, from the ledger alone: every path a file tool wrote and every path a
   * command a human approved changed, sorted. The published tree is the base commit plus these paths
   * as they are at finish; nothing else in the workspace (setup output, leftovers) is ever part of it.
   */
  publishablePaths: string[];
  /** path → content hash a file tool last wrote, while no approved command changed it since: what a human saw. */
  writtenHashes: Record<string, string>;
  /**
   * path → content hash of executable configuration a file tool wrote under its own approval, while no
   * later write or command changed it: the publication check lets exactly these through.
   */
  executableConfigWrites: Record<string, string>;
  latestToolResult: { callId: string; tool: string; result: ToolResult } | null;
  testRuns: TestRun[];
  /** The test run on the base tree at the start of execute mode (`baseline_run`). */
  baseline: TestRun | null;
  /** The agent's report_blocked reason, until the session is ended `blocked` with it. */
  blockReport: string | null;
  /** Failing tests the accepted finish let through as pre-existing (`gate: no_new_failures`). */
  preExistingFailures: string[];
  /** The last setup run, or null when none ran (or a human asked to run a failed one again). */
  setup: SetupRecord | null;
  usage: TokenUsage & { calls: number; costUsd: number | null };
  /** Number of LLM calls made (a step = one model call). */
  step: number;
  conversation: Message[];
  /**
   * Calls of the latest model turn that have no result yet, in order. Empty whenever a model request
   * may be built: the reducer refuses a model call or turn while any is open.
   */
  openCalls: OpenCall[];
  /** Model answers cut at the output limit (finish_reason `length`) so far. */
  outputCuts: number;
  /** Compaction: messages before `cutIndex` are represented by `summary` in the prompt. */
  memory: { cutIndex: number; summary: unknown } | null;
  failure: { reason: FailureReason; message: string } | null;
  /** Why the session is blocked (phase `blocked`), in words a maintainer can act on. */
  blocked: { reason: BlockedReason; message: string; work?: BlockedWork } | null;
  /** The sandbox's toolchains (`toolchains_resolved`); null until they are resolved. */
  toolchains: ToolchainRecord[] | null;
  /** The phase the session was in when it failed (where `/agent retry` continues). */
  failedIn: Phase | null;
  finishSummary: string | null;
  /** The tree hash finish was accepted on: what may be published, and nothing else. */
  finishedTree: string | null;
  /** The paths that tree changes against the base, as finish listed them. */
  finishedPaths: string[] | null;
  published: { branch: string; commit: string; url?: string; tree?: string } | null;
  /** The receipts recorded for the session's commits (`receipt_recorded`), oldest first. */
  receipts: { commit: string; kind: "plan" | "result"; digest: string }[];
  /** The tool versions last recorded (`tool_versions`): what a resume compares its tools with. */
  toolVersions: Record<string, string>;
  /** The session's branch and the lease on it (events branch_claimed / branch_push_intended / branch_pushed / branch_rebased). */
  lease: BranchLease | null;
  /** Every question planning asked (ask_human), in order, with its answer once given. */
  questions: { question: string; answer: string | null; by: string | null }[];
  /** The repository instructions in the prompt (`instructions_loaded`); null until they were looked for. */
  instructions: RepoInstructions | null;
  /** Number of events folded, i.e. the seq the next event will get. */
  eventCount: number;
}
