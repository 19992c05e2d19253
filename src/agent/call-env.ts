import type { Ledger } from "../store/ledger.js";
import type { PolicyRule } from "../policy/types.js";
import type { ToolContext, ToolDefinition } from "../tools/tool.js";

/**
 * What the call handler and the recovery steps around it act with: the session's ledger, the tools a
 * call may name, the policy's rules, and the context each call runs in. Only types: every file of the
 * resume may name it without importing the one that acts (./call-handler.ts).
 */
export interface CallEnv {
  ledger: Ledger;
  tools: ToolDefinition[];
  rules: PolicyRule[];
  context: () => ToolContext;
  /** No human can answer an MCP `ask` in this session: the policy turns it into a deny. */
  mcpNonInteractive?: boolean;
  /** Where the toolchains' credential walks are kept across sessions (ResumeOptions.toolchainWalks). */
  toolchainWalks?: string;
  /** Resolves once the baseline test run beside the loop has ended (./baseline.ts); absent: none runs. */
  untilBaseline?: () => Promise<void>;
}
