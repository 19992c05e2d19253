import type { Decision, PermissionMode } from "../session/types.js";
import { BUILTIN_RULE } from "./builtin-rules.js";
import { parseCommandLine, type CommandPart } from "./command-line.js";
import { partsFedByDownload, redirectEffect, riskyAssignments } from "./command-hazards.js";
import { matchesPart, matchesRequest } from "./rule-match.js";
import type { ActionRequest, PolicyDecision, PolicyRule } from "./types.js";

/**
 * Gate 3 (DESIGN §3): `evaluate` is the one place that decides allow / ask / deny. It is pure: same
 * request, rules and mode → same decision, with the id of the rule that decided, so the ledger can say
 * why. Among everything that applies the strictest wins; when nothing applies a human decides.
 */

export interface PolicyContext {
  workspaceRoot: string;
}

type Verdict = { decision: Decision; rule: string };

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
const DEFAULT: Verdict = { decision: "ask", rule: BUILTIN_RULE.DEFAULT_ASK };

/** Strictest verdict; on a tie the earliest (rule order) keeps its place, so results are stable. */
function strictest(verdicts: Verdict[]): Verdict | null {
  return verdicts.reduce<Verdict | null>((best, v) => (best === null || RANK[v.decision] > RANK[best.decision] ? v : best), null);
}

function fromRules(rules: PolicyRule[]): Verdict[] {
  return rules.map((r) => ({ decision: r.decision, rule: r.id }));
}

export function evaluate(request: ActionRequest, rules: PolicyRule[], mode: PermissionMode, ctx: PolicyContext): PolicyDecision {
  if (mode === "plan" && (request.kind === "write" || request.kind === "command")) {
    return { decision: "deny", rule: BUILTIN_RULE.PLAN_GATE };
  }
  if (request.kind !== "command") {
    return strictest(fromRules(rules.filter((r) => matchesRequest(r, request, mode)))) ?? DEFAULT;
  }
  const parsed = parseCommandLine(request.command);
  if (!parsed.ok) {
    const rule = BUILTIN_RULE.UNPARSEABLE;
    return { decision: "deny", rule, reason: parsed.error.message, parts: [{ command: request.command, decision: "deny", rule }] };
  }
  const fedByDownload = partsFedByDownload(parsed.line);
  const parts = parsed.line.parts.map((part, i) => {
    const v = judgePart(part, fedByDownload.has(i), request, rules, mode, ctx);
    return { command: part.text, decision: v.decision, rule: v.rule };
  });
  const overall = strictest(parts) ?? DEFAULT;
  return { decision: overall.decision, rule: overall.rule, parts };
}

/** One simple command: its rules, then what its pipeline, environment and redirections add. */
function judgePart(
  part: CommandPart,
  fedByDownload: boolean,
  request: ActionRequest,
  rules: PolicyRule[],
  mode: PermissionMode,
  ctx: PolicyContext,
): Verdict {
  const lineText = request.kind === "command" ? request.command : "";
  const matched = rules.filter((r) => matchesPart(r, request, mode, { part, lineText }, ctx));
  const verdicts: Verdict[] = [strictest(fromRules(matched)) ?? DEFAULT];
  // A maintainer-configured command (`exact`) vouches for the environment and redirections it spells
  // out; it never vouches past a deny.
  const vouched = matched.some((r) => r.command?.exact !== undefined);
  if (fedByDownload) verdicts.push({ decision: "deny", rule: BUILTIN_RULE.DOWNLOAD_TO_SHELL });
  if (!vouched && riskyAssignments(part).length > 0) verdicts.push({ decision: "ask", rule: BUILTIN_RULE.ENV_OVERRIDE });
  for (const r of part.redirects) {
    const effect = redirectEffect(r, ctx.workspaceRoot);
    let v: Verdict | null = null;
    if (effect.kind === "write-outside") v = { decision: "deny", rule: BUILTIN_RULE.REDIRECT_OUTSIDE };
    // `> file` is a write like write_file's: the same write rules judge it.
    if (effect.kind === "write") {
      const write: ActionRequest = { kind: "write", tool: request.tool, path: effect.rel };
      v = strictest(fromRules(rules.filter((rule) => matchesRequest(rule, write, mode)))) ?? DEFAULT;
    }
    // `cmd < f` reads f as `cat f` would; only a deny (secrets) is taken from that judgement.
    if (effect.kind === "read") {
      const reader: CommandPart = { argv: ["cat", effect.target], text: `cat ${effect.target}`, assignments: [], redirects: [], inputFrom: [], pipedFromPrevious: false };
      const readVerdict = strictest(fromRules(rules.filter((rule) => matchesPart(rule, request, mode, { part: reader, lineText: "" }, ctx))));
      if (readVerdict?.decision === "deny") v = readVerdict;
    }
    if (v !== null && !(vouched && v.decision !== "deny")) verdicts.push(v);
  }
  return strictest(verdicts) ?? DEFAULT;
}
