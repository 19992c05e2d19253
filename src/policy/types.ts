import type { Decision, PermissionMode } from "../session/types.js";

/** What a tool call asks to do, as the policy sees it. Built by each tool from its validated input. */
export type ActionRequest =
  | { kind: "read"; tool: string; path?: string }
  | { kind: "write"; tool: string; path: string }
  /** `command` is the text the model gave; the policy parses it into argv itself. */
  | { kind: "command"; tool: string; command: string }
  /** Plan, todo and finish bookkeeping: never touches the workspace. */
  | { kind: "meta"; tool: string };

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
  /** Only in this mode. */
  mode?: PermissionMode;
  description?: string;
}

export interface CommandMatcher {
  /** argv[0] basename is one of these. */
  program?: string[];
  /** argv (after the program) starts with these tokens, in order. */
  argsPrefix?: string[];
  /** Any argument equals one of these. */
  anyArg?: string[];
  /** Custom predicate for rules that need more than matching (e.g. rm -rf outside the workspace). */
  test?: (argv: string[], ctx: { workspaceRoot: string }) => boolean;
  /** Text pattern on the whole simple command, e.g. the configured test command exactly. */
  exact?: string;
}

export interface PolicyDecision {
  decision: Decision;
  /** id of the deciding rule, or "default:ask" when nothing matched. */
  rule: string;
  /** Why, in words the model can act on, where the rule id alone does not say (e.g. a parse error). */
  reason?: string;
  /** For command lines: every part and how it was judged. */
  parts?: { command: string; decision: Decision; rule: string }[];
}
