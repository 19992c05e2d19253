/** Value types shared by events and state. */

export type PermissionMode = "plan" | "execute";

export type Phase =
  | "queued"
  | "planning"
  | "awaiting_plan_approval"
  /** Planning asked the maintainers a question (ask_human) and waits for the answer. */
  | "awaiting_answer"
  | "executing"
  | "awaiting_write_approval"
  /** finish found the tests weakened (a `test_integrity` request); its call waits for a human's decision. */
  | "awaiting_integrity_approval"
  /** request_grant asked for a host, budget or time a human may allow; its call waits for the decision. */
  | "awaiting_grant"
  /** The operator's budget for the installation or repository is reached: the session waits for `/agent budget +<usd>`. */
  | "awaiting_budget"
  | "publishing"
  | "done"
  | "failed"
  | "cancelled"
  /** Ended without a fault of the run: something only a human can provide is missing (see BlockedReason). */
  | "blocked";

export const TERMINAL_PHASES: readonly Phase[] = ["done", "failed", "cancelled", "blocked"];

/**
 * Why a session could not even try: a word a maintainer can act on. More reasons (the agent's own
 * `report_blocked`, no test command) join this list; each ends the session in phase `blocked`.
 */
/**
 * The work so far of a session the agent reported blocked: pushed untested to the session's branch
 * (the draft PR, or a local branch from the CLI), or not pushed and why.
 */
export type BlockedWork = { pushed: true; branch: string; commit: string; failing: string[] | null } | { pushed: false; why: string };

export type BlockedReason =
  | "toolchain_missing"
  /** The agent called report_blocked: it cannot make the gate pass (pre-existing failures, an impossible task). */
  | "reported_by_agent"
  /** No test command configured or detected: no change could ever pass the test gate. */
  | "no_test_command";

/** Why a session ended badly. Each is a word a maintainer (and the eval classifier) can act on. */
export type FailureReason =
  | "llm_empty"
  | "llm_error"
  | "loop_limit"
  | "budget_exceeded"
  | "workspace_error"
  | "config_invalid"
  | "publish_failed"
  /** The session's branch got commits Patchgate did not make, and its change does not apply on top of them. */
  | "branch_conflict"
  /** The durable queue gave up on the session's job: the workers running it died (src/github/session-work/dead-letter.ts). */
  | "worker_died"
  | "internal";

/**
 * Why a setup that the config lets use the network ran without it: the session had already changed
 * the workspace, the tree's setup inputs (policy/setup-inputs.ts) differ from the default branch's
 * (`paths`), or the clone has no default branch to compare with.
 */
/**
 * How a sandboxed run was ended from outside: the signal, and which of the runtime's limits sent it
 * (`time`: the wall-clock timeout; `stop`: the session was stopped) or null when none can be named.
 */
export interface RunKill {
  signal: string | null;
  limit: "time" | "disk" | "file_size" | "cpu" | "memory" | "stop" | null;
}

export interface SetupWithheld {
  reason: "workspace_changed" | "setup_inputs_changed" | "default_branch_unknown";
  paths?: string[];
}

/** What the dependency cache (src/depcache) did around a setup: restored an entry instead of running it, stored one after, or why not. */
export interface SetupCacheRecord {
  key: string;
  outcome: "restored" | "stored" | "not_stored";
  bytes?: number;
  paths?: string[];
  reason?: string;
}

/**
 * A reviewer's line comment that a follow-up session addresses (sanitised when the session was
 * created): where it sits on the diff, and its thread, which gets Patchgate's reply once pushed.
 */
export interface ReviewComment {
  id: number;
  /** The pull request the comment is on. */
  pull: number;
  path: string;
  /** The commented line (the last of a range) and the range's first line; null where GitHub gives none (an outdated comment). */
  line: number | null;
  startLine: number | null;
  side: string;
  /** The diff hunk the comment sits on, as GitHub shows it above the comment. */
  hunk: string;
  body: string;
  by: string;
}

/** The last setup of the session (`setup_run`), what memoises it: see runs/test-setup.ts. */
export interface SetupRecord {
  command: string;
  passed: boolean;
  exitCode: number | null;
  durationMs: number;
  summary: string;
  network: boolean;
  inputDigest: string | null;
  killed?: RunKill;
}

export interface TaskInput {
  title: string;
  body: string;
  /** A follow-up started by a review: its line comments, each answered in its thread once the change is pushed. */
  reviewComments?: ReviewComment[];
  /** Where the task came from; GitHub fields are absent for local CLI runs. */
  source: {
    kind: "cli" | "github" | "eval";
    repo: string;
    issueNumber?: number;
    requester?: string;
    /** GitHub's id of the requester (their noreply address in the commit's Co-authored-by trailer). */
    requesterId?: number;
    installationId?: number;
    /** GitHub's id of the repository: it survives a rename or a transfer, the name does not. */
    repoId?: number;
    /** The GitHub object that started the session (`comment:<id>`, `issue:<id>`, `label:<n>:agent`). */
    trigger?: string;
    /** The automation of `.github/patchgate.yml` that started it, when no `/agent` did. */
    automation?: AutomationSource;
  };
}

/** Which automation started a session, and the file it was declared in, as read when it fired. */
export interface AutomationSource {
  name: string;
  /** What fired it, in words: `issue_labeled bug`, `issue_opened`, `schedule 0 3 * * *`, `ci_failed`. */
  on: string;
  /** The default branch's last commit that changed `.github/patchgate.yml`: the file was read at it. */
  configCommit: string;
  /** Who made that commit (a GitHub login), or null when GitHub links it to no account. */
  lastChangedBy: string | null;
  /** `approve_plan: auto`: the automation approves the plan it made; never a write. */
  approvePlan: boolean;
}

/** A toolchain the sandbox sees, as chosen on the host before the first run (src/toolchain). */
export interface ToolchainRecord {
  /** `rust`, `python`, `node`, `go`, `pnpm`, `yarn`, an asdf/mise tool, or an operator's name. */
  name: string;
  /** As the installation tells it (`1.95.0`); `unknown` where nothing on disk says. */
  version: string;
  /** The directory put on PATH inside the sandbox, ahead of /usr/bin. */
  path: string;
  /** Host directories bound read-only at their own paths; empty when the toolchain lives under /usr. */
  binds: string[];
  /** How it was found: the manager, the pin that chose it, the shim that was followed. */
  how: string;
  /**
   * Fetched into the dependency cache because the host lacked the pinned version: the package, the
   * registry's sha512 it was checked against, and whether this session downloaded it or found it cached.
   */
  fetched?: { package: string; registry: string; integrity: string; from: "downloaded" | "cache" | "refetched" };
}

/** A toolchain the repository needs that the host does not have. */
export interface UnmetToolchain {
  name: string;
  /** The version asked for (`1.80.0`, `>= 1.22`), or `any` when a command needs the program at all. */
  wanted: string;
  /** The file or command that asks (`rust-toolchain.toml`, `test command`). */
  source: string;
  /** What to install, in words a maintainer can run. */
  install: string;
  /** A required one ends the session `blocked` before the first model call. */
  required: boolean;
}

/**
 * The repository's guidance for agents as the session saw it: `path` the file used (null: none of the
 * candidates exists on the default branch), `commit` the default branch's head it was read at,
 * `bytes` the file's size, `text` what the model sees (sanitised, capped), `truncated` whether it was cut.
 */
export interface RepoInstructions {
  path: string | null;
  commit: string | null;
  bytes: number;
  text: string;
  truncated: boolean;
  /** The paths looked for, in order. */
  candidates: string[];
}

export interface Plan {
  summary: string;
  steps: string[];
}

type TodoStatus = "pending" | "in_progress" | "completed" | "cancelled";

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

/**
 * A write of executable configuration (policy/executable-config.ts): the file, the tool that executes
 * or obeys it, and when. Shown apart in the approval request; only its own approval lets it run.
 */
export interface ExecutableConfigHit {
  path: string;
  tool: string;
  when: string;
}

/** A tool call the policy marked `ask`, waiting for a human. */
export interface PendingCall {
  callId: string;
  tool: string;
  /** Arguments after zod validation. */
  input: unknown;
  /** Human-readable preview: a diff for writes, argv for commands. */
  preview: string;
  rule: string;
  /** The tool's version when the call was parked: a different one at approval time is not run (tools/CHANGELOG.md). */
  toolVersion?: string;
  /** It writes executable configuration: it runs only if the batch's approval names executable configuration too. */
  executableConfig?: ExecutableConfigHit;
}

export interface PendingApproval {
  digest: string;
  calls: PendingCall[];
  status: "pending" | "approved" | "denied";
  denyReason?: string;
  /** The approval covered the batch's executable configuration too (a human's explicit `executable_config` approval). */
  executableConfigApproved?: boolean;
  /** Who approved or denied it, once decided (audit records name them). */
  decidedBy?: Approver;
  /** Call ids already executed or answered after the decision (resume skips them). */
  settledCallIds: string[];
}

export interface FileContext {
  /** sha256 of the content when the file was last read or written by the agent. */
  hash: string;
  step: number;
  /** Lines shown since (sorted, inclusive, 1-based); absent: the whole file (a whole read or the agent's own write). */
  seen?: [number, number][];
}

export interface TestRun {
  command: string;
  exitCode: number | null;
  treeHash: string;
  durationMs: number;
  timedOut: boolean;
  /** Last lines of output and failing test names where the runner prints them. */
  summary: string;
  /**
   * The failing tests by name (runs/failing-tests.ts): [] for a pass, null when the run failed and
   * its output names no test (or too many): then only a pass counts. Absent in older ledgers.
   */
  failing?: string[] | null;
  /** Set when the run did not end by itself. Absent in older ledgers. */
  killed?: RunKill;
  /** The counts the runner printed (sandbox/test-report), when it printed them: what the test-integrity gate compares. */
  totals?: { total?: number; passed?: number; skipped?: number };
}

export type ToolResult = { ok: true; data: unknown; truncated?: boolean } | { ok: false; error: ToolError; truncated?: boolean };

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
  /** `flag`: given in advance on the command line (`--approve-plan`), `login` then names the flag: nobody saw what was approved. */
  via: "cli" | "flag" | "comment" | "review" | "label" | "check_run" | "eval" | "auto" | "automation";
  /**
   * The GitHub object the decision came from (`comment:<id>`, `review:<id>`, `label-event:<id>`…):
   * a delivery that runs again after a crash finds it applied and does nothing twice.
   */
  source?: string;
  /** An automation's approval in words (`automation triage in .github/patchgate.yml@abc1234, last changed by @alice`): nobody's login. */
  how?: string;
}
