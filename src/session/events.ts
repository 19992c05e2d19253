import type { SealedReasoning, ToolCall } from "./messages.js";
import type {
  Approver,
  BlockedReason,
  BlockedWork,
  Decision,
  DiffInfo,
  FailureReason,
  PendingCall,
  RepoInstructions,
  Phase,
  Plan,
  RunKill,
  SetupCacheRecord,
  SetupWithheld,
  TaskInput,
  TestRun,
  Todo,
  TokenUsage,
  ToolchainRecord,
  ToolResult,
  UnmetToolchain,
} from "./types.js";
import type { IntegrityReportRecord } from "./test-integrity.js";
import type { GrantRequestRecord } from "./grants.js";
import type { McpCallAudit, McpToolRecord, McpTrust } from "./mcp-records.js";
import type { BudgetPark } from "./budget-park.js";

/**
 * Every fact about a session is one of these events, appended in order.
 * State is `fold(events)`; the timeline, the checkpoint and the eval trace are this same list.
 */
export type SessionEvent =
  | {
      type: "session_created";
      sessionId: string;
      task: TaskInput;
      model: string;
      settings: SessionSettings;
      /**
       * The repository's `.github/patchgate.yml` as parsed (defaults filled in) when the session
       * started, read from the default branch then: a session keeps the rules it started under.
       * Plain JSON here (the core imports no config code); read back through RepoConfigSchema.
       */
      repoConfig?: Record<string, unknown>;
    }
  /**
   * The repository's instructions for agents (AGENTS.md and its kin), read once from the default
   * branch before the first model call, sanitised and capped; `path` null: none was found.
   */
  | ({ type: "instructions_loaded" } & RepoInstructions)
  | { type: "workspace_prepared"; baseCommit: string; workdir: string }
  | {
      type: "llm_called";
      model: string;
      usage: TokenUsage;
      latencyMs: number;
      retries: number;
      costUsd: number | null;
      ok: boolean;
      error?: string;
      /** The provider's finish_reason (`length` = the output was cut at max_tokens). */
      finishReason?: string | null;
    }
  | {
      type: "assistant_message";
      content: string | null;
      toolCalls: ToolCall[];
      /** Sealed provider reasoning, sent back on later requests; never shown. */
      reasoning?: SealedReasoning;
    }
  /**
   * A call that cannot safely run twice (a write, a command) is about to run. Written ahead, so a
   * resume after a crash knows the call may have had an effect and answers it `interrupted`.
   */
  | { type: "tool_started"; callId: string }
  | {
      type: "policy_decided";
      callId: string;
      tool: string;
      decision: Decision;
      rule: string;
      /** What was judged: a path, the command text, or `<server>/<tool>` for an MCP call. */
      subject: string;
      /** Why, where the rule id alone does not say (an MCP tool's risk evidence, a parse error). */
      reason?: string;
    }
  | {
      type: "tool_result";
      callId: string;
      tool: string;
      toolVersion: string;
      /** Arguments as validated (or raw text when they did not parse), kept for the trace. */
      input: unknown;
      result: ToolResult;
      durationMs: number;
    }
  /** `lines`: the page shown, of `totalLines` (absent in old ledgers: the whole file). */
  | { type: "file_read"; path: string; hash: string; lines?: [number, number]; totalLines?: number }
  /** `seen`: after an edit, the lines of the new content the agent was shown or wrote (absent: all of them). */
  /**
   * `executableConfig`: the file is executable configuration, written under a human's explicit approval
   * of it (the reducer refuses the flag otherwise); only such a write makes it publishable.
   */
  | { type: "file_written"; path: string; hash: string; seen?: [number, number][]; executableConfig?: boolean }
  /**
   * A file tool deleted `path`; `hash` names the content it held (never the content itself). Published
   * as deleted. `executableConfig`: as for file_written, the path was executable configuration.
   */
  | { type: "file_deleted"; path: string; hash: string; executableConfig?: boolean }
  /**
   * A file tool moved `from` to `to`, content unchanged (`hash` names it, whatever its size or kind).
   * What the agent had seen of `from` now belongs to `to`; `from` is published as deleted.
   */
  | { type: "file_moved"; from: string; to: string; hash: string; executableConfig?: boolean }
  | { type: "todos_updated"; todos: Todo[] }
  | { type: "plan_updated"; plan: Plan }
  | { type: "plan_submitted"; plan: Plan; hash: string }
  | { type: "plan_approved"; hash: string; by: Approver }
  /** Planning asked the maintainers (ask_human): the session parks in `awaiting_answer`. */
  | { type: "question_asked"; question: string }
  /** The answer to question `index` (0-based), sanitised, from someone the runtime obeys: planning resumes with it. */
  | { type: "question_answered"; index: number; answer: string; by: Approver }
  | { type: "plan_revision_requested"; feedback: string; by: Approver }
  | { type: "approval_requested"; digest: string; calls: PendingCall[] }
  /**
   * `executableConfig`: the human approved the batch's executable configuration too, explicitly (a
   * comment or the terminal; never a label, a flag or an automatic approval: the reducer refuses those).
   */
  | { type: "approval_granted"; digest: string; by: Approver; executableConfig?: boolean }
  | { type: "approval_denied"; digest: string; by: Approver; reason: string }
  /** Every later write the policy marks `ask` is allowed (the `agent:writes-approved` label). */
  | { type: "writes_auto_approved"; by: Approver }
  /** All calls of the pending batch have a recorded result; the batch is closed. */
  | { type: "approval_settled"; digest: string }
  /**
   * finish found the tests weakened on the tree to publish: the call `callId` waits, open, for a human's
   * decision bound to `digest` (the findings), apart from any write batch.
   */
  | { type: "integrity_requested"; callId: string; digest: string; report: IntegrityReportRecord }
  /** Only a human who was shown the findings (never a label, a flag or an automatic approval: the reducer refuses those). */
  | { type: "integrity_approved"; digest: string; by: Approver }
  | { type: "integrity_denied"; digest: string; by: Approver; reason: string }
  /** The test-integrity verdict finish is accepted with (written with finish_accepted): the report and who approved its findings. */
  | { type: "integrity_checked"; treeHash: string; digest: string; report: IntegrityReportRecord; approvedBy?: Approver }
  /**
   * request_grant asked a human for a host, more budget or more time: the call `callId` waits, open,
   * for a decision bound to `digest` (the request). Never in an unattended session.
   */
  | { type: "grant_requested"; callId: string; digest: string; request: GrantRequestRecord }
  /** Only a human shown the request (never a flag or an automatic approval: the reducer refuses those); in force for this session only. */
  | { type: "grant_approved"; digest: string; by: Approver }
  | { type: "grant_denied"; digest: string; by: Approver; reason: string }
  | { type: "diff_updated"; diff: DiffInfo }
  | ({ type: "test_run" } & TestRun)
  /**
   * A command or test run changed files that are not ignored, without a human's approval: they were
   * put back as they were before it ran.
   */
  | { type: "changes_rolled_back"; tool: string; paths: string[] }
  /** A command a human approved changed these files (not ignored): they are published as they end up. */
  | { type: "command_changed"; tool: string; paths: string[] }
  /** The repository's setup command (e.g. `npm ci`) ran in the sandbox before the first test run. */
  | {
      type: "setup_run";
      command: string;
      exitCode: number | null;
      durationMs: number;
      network: boolean;
      summary: string;
      withheld?: SetupWithheld;
      /** workspace/setup-digest.ts: the setup is not run again while its inputs keep this digest. */
      inputDigest?: string;
      timedOut?: boolean;
      /** A networked setup's destinations the egress proxy refused (`host:port`): not registries, not in allow_hosts. */
      refusedHosts?: string[];
      /** Set when the setup did not end by itself: the signal and the limit that sent it. */
      killed?: RunKill;
      dependencyCache?: SetupCacheRecord;
    }
  /**
   * The tests as they were before the session changed anything: run once at the start of execute
   * mode, on the base tree (after setup). `gate: no_new_failures` compares later runs with it.
   */
  | ({ type: "baseline_run" } & TestRun)
  /**
   * The agent's report_blocked: it cannot make the gate pass. The runtime ends the session `blocked`
   * once every call of the turn has its answer (session_blocked follows).
   */
  | { type: "block_reported"; reason: string }
  /** A human asked for a failed setup to run again (`/agent retry`) although its inputs did not change. */
  | { type: "setup_retry_requested"; by: string }
  | { type: "user_message"; content: string; by?: string }
  | {
      type: "context_compacted";
      /** Messages with index < this are replaced by the summary in the prompt. */
      cutIndex: number;
      summary: unknown;
    }
  | { type: "compaction_failed"; error: string }
  /** `treeHash` is the published tree (base + publishable paths); `paths` what it changes (absent in old ledgers). */
  | {
      type: "finish_accepted";
      summary: string;
      treeHash: string;
      paths?: string[];
      /** With `gate: no_new_failures`: tests that fail on this tree and failed on the base tree too. */
      preExisting?: string[];
    }
  /** `tree` is the pushed commit's own tree, read back from git: the evidence that it is the tested one. */
  | { type: "published"; branch: string; commit: string; url?: string; tree?: string }
  /**
   * A signed receipt (src/receipt/) of a commit Patchgate made, written as its git note: `digest` is
   * sha256 of the note's text, `envelope` that text (a DSSE envelope; hashes and ids, no content).
   */
  | { type: "receipt_recorded"; commit: string; kind: "plan" | "result"; digest: string; envelope: string }
  /**
   * The branch this session publishes to, and what Patchgate knows of it: the head it last saw there
   * (null: the branch must not exist yet) and the commits Patchgate itself pushed to it in earlier
   * sessions. A later push may replace only those (see publish/branch-lease.ts).
   */
  | { type: "branch_claimed"; branch: string; head: string | null; ours: string[] }
  /** Patchgate pushed `commit` to `branch`: it is the lease for the next push, and one of ours. */
  | {
      type: "branch_pushed";
      branch: string;
      commit: string;
      /** `api`: made through GitHub's Git Data API, so signed by GitHub; `git`: pushed with git, unsigned, for the reason `unsigned` says. Absent in older ledgers (git). */
      via?: "api" | "git";
      unsigned?: string;
    }
  /**
   * Patchgate is about to move `branch` to `commit` (written before the ref update, fenced like every
   * append): the commit is one of ours from now on, so a holder that dies between the update and
   * `branch_pushed` leaves GitHub's head recognisable to the next one, on any disk. Absent in older ledgers.
   */
  | { type: "branch_push_intended"; branch: string; commit: string }
  /**
   * The branch had commits Patchgate did not make (`foreign`); the session's change was rebuilt on
   * top of them, `onto` being the branch's head: it becomes the base. A result that was ready to
   * publish goes back to executing, since the tests passed on a tree that no longer exists.
   */
  | { type: "branch_rebased"; branch: string; onto: string; foreign: string[] }
  | { type: "session_failed"; reason: FailureReason; message: string }
  | { type: "session_cancelled"; by: string; reason?: string; source?: string }
  /**
   * The session cannot go on until a human provides something; `message` says what. `work`: where the
   * work so far went (an agent's report in execute mode), pushed untested or not pushed and why.
   */
  | { type: "session_blocked"; reason: BlockedReason; message: string; work?: BlockedWork }
  /**
   * The toolchains every sandboxed run of the session sees, resolved once on the host before the
   * first model call; `unmet` lists what the repository needs and the host lacks.
   */
  | { type: "toolchains_resolved"; toolchains: ToolchainRecord[]; unmet: UnmetToolchain[] }
  /**
   * A failed session continues from where it failed (`/agent retry`): `phase` is that point (see
   * reopenPhase), so an approved plan stays approved and a waiting batch keeps waiting.
   */
  | { type: "session_reopened"; by: string; phase: Phase }
  /**
   * The session's whole budget as it applies from now on, once the repository's config is known
   * (the CLI creates a session before it clones, so `.github/patchgate.yml`'s limits arrive late).
   */
  | { type: "limits_configured"; limits: SessionSettings["limits"]; source: string }
  /** The operator's monthly ceiling was reached before a model call: the session parks (session/budget.ts). */
  | ({ type: "budget_parked" } & BudgetPark)
  /** A write-access human raised the ceiling for this session by `usd` (`/agent budget +<usd>`); a parked session goes on. */
  | { type: "budget_raised"; usd: number; by: Approver }
  /** A resume began (after a restart, an approval, or a new webhook). */
  | { type: "resumed"; trigger: string }
  /**
   * The version of every tool offered at a resume (built-in: tools/CHANGELOG.md; MCP: server, version and
   * schema hash), recorded when it differs from the last record; `changed` says what a replay or resume
   * found different from the session's earlier steps.
   */
  | { type: "tool_versions"; versions: Record<string, string>; changed: { tool: string; from: string | null; to: string | null }[] }
  // MCP (src/mcp). Servers come from the operator's config only; every string a server sent is sanitised.
  /** A configured server answered `initialize`. */
  | { type: "mcp_server_connected"; server: string; transport: "stdio" | "http"; trust: McpTrust; serverName: string; serverVersion: string }
  /** A server failed to start (`start`) or stopped mid-session (`running`): its tools are no longer offered. */
  | { type: "mcp_server_failed"; server: string; stage: "start" | "running"; message: string }
  /**
   * The tools of a server as offered from the next model call: at start, or after the server's
   * `notifications/tools/list_changed` (recorded only when something changed). Names are the offered ones.
   */
  | {
      type: "mcp_tools_listed";
      server: string;
      reason: "start" | "list_changed";
      tools: McpToolRecord[];
      added: string[];
      removed: string[];
      changed: string[];
    }
  /** A tool the server listed that is not offered: invalid or hostile schema, operator deny, unsupported, too many. */
  | { type: "mcp_tool_dropped"; server: string; tool: string; reason: string }
  /** Audit record of one stage of one MCP call (see McpCallAudit for the stages and fields). */
  | ({ type: "mcp_call" } & McpCallAudit);

export type SessionEventType = SessionEvent["type"];

/** An event as stored: its position in the session and when it was appended. */
export type StoredEvent = SessionEvent & { seq: number; at: string };

export interface SessionSettings {
  maxStepsPerResume: number;
  /** Whole-session budget; exceeding any ends the session as `budget_exceeded`. */
  limits: { maxSteps?: number; maxTokens?: number; maxCostUsd?: number };
  testCommand?: string;
  testCommandSource?: string;
  /** Nobody answers questions (a scheduled run, a CI job): requests that would ask are refused instead. */
  unattended?: boolean;
}
