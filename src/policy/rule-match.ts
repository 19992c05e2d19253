import picomatch from "picomatch";
import type { PermissionMode } from "../session/types.js";
import { isTrustedProgramPath, programName } from "./shell/command-facts.js";
import type { CommandPart } from "./shell/command-parts.js";
import { matchesMcp } from "./mcp-rules.js";
import { extraArgsAllowed, prefixMayAllow } from "./prefix-allowance.js";
import type { ActionRequest, CommandMatcher, PartContext, PolicyRule } from "./types.js";

/**
 * Does a rule apply? Every matcher the rule has must match. One asymmetry throughout: a deny rule
 * matches loosely (any path to the program, case-insensitive globs) and an allow rule strictly, so a
 * near-spelling can only make a decision stricter, never looser.
 */

/** The fields every rule kind shares: kind, tool, mode. */
function matchesScope(rule: PolicyRule, request: ActionRequest, mode: PermissionMode): boolean {
  if (rule.kind !== undefined && rule.kind !== request.kind) return false;
  if (rule.tool !== undefined && rule.tool !== request.tool) return false;
  if (rule.mode !== undefined && rule.mode !== mode) return false;
  return true;
}

/** For read, write, meta and MCP requests (a command request is judged part by part instead). */
export function matchesRequest(rule: PolicyRule, request: ActionRequest, mode: PermissionMode): boolean {
  if (!matchesScope(rule, request, mode) || rule.command !== undefined) return false;
  if (rule.mcp !== undefined) return request.kind === "mcp" && matchesMcp(rule.mcp, request, rule.decision === "allow");
  if (rule.paths === undefined) return true;
  const target = request.kind === "read" || request.kind === "write" ? request.path : undefined;
  if (target === undefined) return false;
  return picomatch.isMatch(target, rule.paths, { dot: true, nocase: rule.decision !== "allow" });
}

/** What a command matcher sees of one part, plus the text of the request when it is an explicit shell. */
export interface PartSubject {
  part: CommandPart;
  /** `TEXT` of a request `sh -c TEXT` (see shellScript), else null. */
  script: string | null;
}

export function matchesPart(rule: PolicyRule, request: ActionRequest, mode: PermissionMode, subject: PartSubject, ctx: PartContext): boolean {
  if (!matchesScope(rule, request, mode) || rule.paths !== undefined || rule.mcp !== undefined) return false;
  // A rule without a command matcher (e.g. `{kind: "command", decision: "ask"}`) covers every part.
  return rule.command === undefined || matchesCommand(rule.command, rule.decision === "allow", subject, ctx);
}

function matchesCommand(m: CommandMatcher, strict: boolean, { part, script }: PartSubject, ctx: PartContext): boolean {
  const { argv } = part;
  if (m.program !== undefined) {
    if (argv.length === 0 || !m.program.includes(programName(argv[0]))) return false;
    if (strict && !isTrustedProgramPath(argv[0])) return false;
  }
  if (m.argsPrefix !== undefined) {
    if (!m.argsPrefix.every((token, i) => argv[i + 1] === token)) return false;
    // A deny covers every longer argv; an allow only its own words and the extra words it lists.
    if (strict && !(prefixMayAllow(argv, ctx) && extraArgsAllowed(argv.slice(m.argsPrefix.length + 1), m.extraArgs))) return false;
  }
  if (m.anyArg !== undefined && !argv.slice(1).some((a) => m.anyArg!.includes(a))) return false;
  if (m.exact !== undefined && (script === null || normalise(script) !== normalise(m.exact))) return false;
  if (m.test !== undefined && !m.test(argv, ctx)) return false;
  return true;
}

const normalise = (text: string) => text.trim().replace(/\s+/g, " ");
