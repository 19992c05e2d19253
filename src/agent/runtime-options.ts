import type { RepoConfig } from "../config/repo-config.js";
import type { PolicyRule } from "../policy/types.js";
import type { Sandbox } from "../sandbox/types.js";
import type { OnRun } from "../runs/run-progress.js";
import type { ToolDefinition } from "../tools/tool.js";
import type { Workspace } from "../workspace/types.js";
import type { LLMClient } from "./llm/types.js";
import type { McpRuntime } from "../mcp/index.js";
import type { HostFacts } from "../toolchain/types.js";
import type { OperatorToolchain } from "../toolchain/operator.js";
import type { ToolchainFetcher } from "../depcache/index.js";
import type { SessionState } from "../session/state.js";
import type { BudgetPark } from "../session/budget-park.js";

/** Everything a resume needs besides the ledger. Built fresh on every resume; nothing of it is persisted. */
export interface ResumeOptions {
  llm: LLMClient;
  /** null = no sandbox backend: commands are refused with a clear error, never run bare. */
  sandbox: Sandbox | null;
  workspace: Workspace;
  repoConfig: RepoConfig;
  signal?: AbortSignal;
  /**
   * The caller publishes the work so far of a session the agent reports blocked (the GitHub app to
   * the draft PR, the CLI to a local branch): the loop then returns `keep_blocked_work` instead of
   * ending the session. Absent: the session ends `blocked` and the work stays in the workspace.
   */
  keepBlockedWork?: boolean;
  /**
   * The operator's spend ceilings (GitHub: config/budgets.ts over the store's spend), asked before every
   * model call: a reached one, with this session's raises applied, parks the session. Absent: none.
   */
  spendGate?: (state: SessionState) => Promise<Omit<BudgetPark, "resumeIn"> | null>;
  /** Overrides the session's maxStepsPerResume. */
  maxSteps?: number;
  /** Why this resume happened (for the timeline). */
  trigger?: string;
  /** Replace the policy rules (default: defaultRules from the repo config). */
  rules?: PolicyRule[];
  /** Replace the tool set (the eval runner uses this to prove a broken rule is caught). */
  tools?: ToolDefinition[];
  compaction?: { maxPromptTokens: number; maxTurns: number; keepRecent: number };
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
  /** Told when a sandboxed run starts and ends (the CLI's status line). */
  onRun?: OnRun;
  /**
   * Values redacted by value from what the session exports when it ends (its spans) and from blocked
   * work kept on a branch: the caller's whole list (config/redaction-set.ts). Absent: the secret-looking
   * variables of this process's environment only.
   */
  secrets?: readonly string[];
  /** The operator's MCP servers (never a repository's): connected for this resume, closed when it ends. */
  mcp?: McpRuntime;
  /** The operator's own toolchains (settings `sandbox.toolchains`), bound besides those resolved. */
  toolchains?: OperatorToolchain[];
  /** The host as toolchain resolution sees it; default: this process's (tests give a temporary HOME). */
  host?: HostFacts;
  /** Where each session's cache directory lives (`<cacheRoot>/<sessionId>`); absent = none is bound. */
  cacheRoot?: string;
  /** Where the toolchain directories' credential walks are kept across sessions (src/sandbox/credential-walk-store.ts); absent = each process walks. */
  toolchainWalks?: string;
  /** Installed dependencies across sessions (src/depcache): where, and how many bytes at most; absent = none. */
  dependencyCache?: { root: string; maxBytes: number };
  /** Who fetches a pinned toolchain the host lacks; default: Node from the npm registry into the dependency cache. */
  toolchainFetchers?: readonly ToolchainFetcher[];
}
