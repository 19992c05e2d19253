import { parse } from "shell-quote";
import { defaultRules, type DefaultRuleOptions } from "../../src/policy/default-rules.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { type PolicyRule } from "../../src/policy/types.js";

/** The workspace root the policy tests use: a fixed string, since rules never touch the disk. */
export const ROOT = "/srv/ws";

/**
 * `text` as plain words when it has no shell syntax at all (the argv a model would send), else null.
 * `FOO=1 cmd` is shell syntax too: as argv its first word would be the program.
 */
export function plainWords(text: string): string[] | null {
  const entries = parse(text, (key) => `$${key}`);
  if (!entries.every((e) => typeof e === "string")) return null;
  const words = entries as string[];
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? "") ? null : words;
}

export function judgeArgv(argv: string[], rules: PolicyRule[]) {
  const d = evaluate({ kind: "command", tool: "run_command", argv }, rules, "execute", { workspaceRoot: ROOT });
  return { decision: d.decision, rule: d.rule };
}

/** The text run by an explicit shell, `sh -c TEXT`. */
export function judgeShell(text: string, rules: PolicyRule[]) {
  return judgeArgv(["sh", "-c", text], rules);
}

export const rulesWith = (opts: DefaultRuleOptions = { testCommand: "npm test" }) => defaultRules(opts);
