import type { PermissionMode } from "../../session/types.js";
import { BUILTIN_RULE } from "../builtin-rules.js";
import { isShell, programName } from "./command-facts.js";
import { parseArgv } from "./command-line.js";
import type { CommandPart } from "./command-parts.js";
import { partsFedByDownload, redirectEffect, riskyAssignments } from "./command-hazards.js";
import { matchesPart, matchesRequest } from "../rule-match.js";
import { runsFromData } from "./runs-from-data.js";
import { quoteWords } from "./substitutions.js";
import type { ActionRequest, PolicyDecision, PolicyRule } from "../types.js";
import { DEFAULT_VERDICT, fromRules, strictest, type Verdict } from "../verdicts.js";

type CommandRequest = Extract<ActionRequest, { kind: "command" }>;

/**
 * The text of an explicit shell in its plain form, `sh -c TEXT` with nothing after it: the only form a
 * maintainer's configured line (`exact`) can match. Anything else is null.
 */
export function shellScript(argv: string[]): string | null {
  return argv.length === 3 && isShell(programName(argv[0])) && argv[1] === "-c" ? argv[2] : null;
}

/** How argv is shown to humans and recorded in the ledger: shell-quoted words. */
export function commandText(argv: string[]): string {
  return quoteWords(argv);
}

/**
 * A command request, part by part: the program itself, every command a wrapper in it runs, and the
 * commands inside an explicit shell's text. The strictest part decides. The decision is read-only
 * when every part was allowed by a rule that vouches its program only reads.
 */
export function evaluateCommand(request: CommandRequest, rules: PolicyRule[], mode: PermissionMode, ctx: { workspaceRoot: string }): PolicyDecision {
  const parsed = parseArgv(request.argv);
  if (!parsed.ok) {
    const rule = BUILTIN_RULE.UNPARSEABLE;
    return { decision: "deny", rule, reason: parsed.error.message, parts: [{ command: commandText(request.argv), decision: "deny", rule }] };
  }
  const script = shellScript(request.argv);
  const fedByDownload = partsFedByDownload(parsed.line);
  const judged = parsed.line.parts.map((part, i) => ({ part, ...judgePart(part, fedByDownload.has(i), script, request, rules, mode, ctx) }));
  const parts = judged.map((j) => ({ command: j.part.text, decision: j.verdict.decision, rule: j.verdict.rule }));
  const overall = strictest(parts) ?? DEFAULT_VERDICT;
  const decision: PolicyDecision = { decision: overall.decision, rule: overall.rule, parts };
  return overall.decision === "allow" ? { ...decision, readOnly: judged.every((j) => j.readOnly) } : decision;
}

/** One simple command: its rules, then what its wrappers, environment and redirections add. */
function judgePart(
  part: CommandPart,
  fedByDownload: boolean,
  script: string | null,
  request: CommandRequest,
  rules: PolicyRule[],
  mode: PermissionMode,
  ctx: { workspaceRoot: string },
): { verdict: Verdict; readOnly: boolean } {
  const partCtx = { ...ctx, ...(part.cwd === undefined ? {} : { cwd: part.cwd }), ...(part.wrapped === true ? { wrapped: true } : {}) };
  const matched = rules.filter((r) => matchesPart(r, request, mode, { part, script }, partCtx));
  // The default applies only when nothing else does, so a built-in check names the decision it shares.
  const byRule = strictest(fromRules(matched));
  const verdicts: Verdict[] = byRule === null ? [] : [byRule];
  // A maintainer's configured shell line (`exact`) vouches for everything in it short of a deny.
  const vouched = matched.some((r) => r.command?.exact !== undefined && r.decision === "allow");
  if (fedByDownload) verdicts.push({ decision: "deny", rule: BUILTIN_RULE.DOWNLOAD_TO_SHELL });
  const fromData = runsFromData(part.argv);
  if (!vouched && fromData) verdicts.push({ decision: "ask", rule: fromData.kind === "shell" ? BUILTIN_RULE.EXPLICIT_SHELL : BUILTIN_RULE.RUNS_FROM_DATA });
  if (!vouched && riskyAssignments(part).length > 0) verdicts.push({ decision: "ask", rule: BUILTIN_RULE.ENV_OVERRIDE });
  for (const r of part.redirects) {
    const effect = redirectEffect(r, ctx.workspaceRoot);
    let v: Verdict | null = null;
    if (effect.kind === "write-outside") v = { decision: "deny", rule: BUILTIN_RULE.REDIRECT_OUTSIDE };
    // `> file` is a write like write_file's: the same write rules judge it.
    if (effect.kind === "write") {
      const write: ActionRequest = { kind: "write", tool: request.tool, path: effect.rel };
      v = strictest(fromRules(rules.filter((rule) => matchesRequest(rule, write, mode)))) ?? DEFAULT_VERDICT;
    }
    // `cmd < f` reads f as `cat f` would; only a deny (secrets) is taken from that judgement.
    if (effect.kind === "read") {
      const reader: CommandPart = {
        argv: ["cat", effect.target],
        text: `cat ${effect.target}`,
        assignments: [],
        redirects: [],
        inputFrom: [],
        pipedFromPrevious: false,
      };
      const readVerdict = strictest(fromRules(rules.filter((rule) => matchesPart(rule, request, mode, { part: reader, script: null }, ctx))));
      if (readVerdict?.decision === "deny") v = readVerdict;
    }
    if (v !== null && !(vouched && v.decision !== "deny")) verdicts.push(v);
  }
  const verdict = strictest(verdicts) ?? DEFAULT_VERDICT;
  const readOnly = verdict.decision === "allow" && matched.some((r) => r.decision === "allow" && r.readOnly === true);
  return { verdict, readOnly };
}
