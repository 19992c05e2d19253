import type { McpRisk, McpTrust } from "../session/mcp-records.js";
import type { Decision, ExecutableConfigHit, PermissionMode } from "../session/types.js";

export type { McpRisk, McpTrust };

/** What a tool call asks to do, as the policy sees it. Built by each tool from its validated input. */
export type ActionRequest =
  | { kind: "read"; tool: string; path?: string }
  /**
   * `from`: a move of the file at `from` to `path`. It writes both places (one loses the file, the other
   * gains it), so it is judged as a write to each, the stricter verdict winning.
   */
  | { kind: "write"; tool: string; path: string; from?: string }
  /**
   * One program and its arguments, executed without a shell: the words the policy judges are the words
   * that run. Shell syntax exists only as an explicit shell (`["sh", "-c", "…"]`), whose text the policy
   * parses to find the commands inside.
   */
  | { kind: "command"; tool: string; argv: string[] }
  /** Plan, todo and finish bookkeeping: never touches the workspace. */
  | { kind: "meta"; tool: string }
  /** A tool of an operator-configured MCP server, with the risk class local policy gave it (./mcp-risk.ts). */
  | { kind: "mcp"; tool: string; server: string; serverTool: string; trust: McpTrust; risk: McpRisk; reasons: string[] };

/**
 * A policy rule: every present matcher must match. Among matching rules the strictest decision wins
 * (deny > ask > allow); no match = ask.
 */
export interface PolicyRule {
  id: string;
  decision: Decision;
  kind?: ActionRequest["kind"];
  tool?: string;
  /** picomatch globs against the workspace-relative path (write/read). */
  paths?: string[];
  /** Matches one simple command (argv) of a parsed command line. */
  command?: CommandMatcher;
  /** Matches MCP requests (kind `mcp`) only; every present field must match. */
  mcp?: McpMatcher;
  /** Only in this mode. */
  mode?: PermissionMode;
  /**
   * An `allow` by this rule vouches that the command only reads: it then runs with the workspace
   * mounted read-only, so a rule that is wrong about a program still cannot write.
   */
  readOnly?: boolean;
  description?: string;
}

export interface CommandMatcher {
  /** argv[0] basename is one of these. */
  program?: string[];
  /**
   * argv (after the program) starts with these tokens, in order. A deny matches any longer argv; an
   * allow matches exactly these words, plus words matching `extraArgs` (prefix-allowance.ts).
   */
  argsPrefix?: string[];
  /** For an allow with `argsPrefix`: globs that each extra word must match; absent = no extra word. */
  extraArgs?: string[];
  /** Any argument equals one of these. */
  anyArg?: string[];
  /** Custom predicate for rules that need more than matching (e.g. rm -rf outside the workspace). */
  test?: (argv: string[], ctx: PartContext) => boolean;
  /**
   * A maintainer's shell line (the configured test or setup command): matches an explicit shell whose
   * text is this line (whitespace aside), and then vouches for every command inside it short of a deny.
   */
  exact?: string;
}

/** Where one simple command runs, for rules that resolve relative paths. */
export interface PartContext {
  /** Host path of the workspace. */
  workspaceRoot: string;
  /** Set when a wrapper changed directory first (`env -C dir cmd`): that directory, as written. */
  cwd?: string;
  /** The command is run by a wrapper in the argv (`timeout 5 cmd`), not started by run_command itself. */
  wrapped?: boolean;
}

export interface PolicyDecision {
  decision: Decision;
  /** id of the deciding rule, or "default:ask" when nothing matched. */
  rule: string;
  /** Why, in words the model can act on, where the rule id alone does not say (e.g. a parse error). */
  reason?: string;
  /** For command lines: every part and how it was judged. */
  parts?: { command: string; decision: Decision; rule: string }[];
  /** For an allowed command: every part was allowed by a `readOnly` rule, so it runs read-only. */
  readOnly?: boolean;
  /** The write is executable configuration: only a human's `executable_config` approval lets it run. */
  executableConfig?: ExecutableConfigHit;
}

/** What the risk classifier looks at. The description is deliberately not part of it. */
export interface McpToolFacts {
  trust: McpTrust;
  /** The operator trusts this (trusted) server's annotations: its readOnlyHint may loosen the class. */
  trustAnnotations?: boolean;
  /** The tool's name as the server gives it. */
  name: string;
  inputSchema: unknown;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export interface McpMatcher {
  /** Server names (exact). */
  servers?: string[];
  /** picomatch globs against the server's own tool name. */
  tools?: string[];
  risks?: McpRisk[];
  trust?: McpTrust[];
}

/** One repository `allow_commands` entry: exact words, or words plus extra words matching `extra_args` globs. */
export type AllowCommand = string | { command: string; extra_args: string[] };
