import { parse } from "shell-quote";
import { defaultRules, type DefaultRuleOptions } from "../../src/policy/default-rules.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { type PolicyRule } from "../../src/policy/types.js";
import { quoteWords } from "../../src/policy/shell/substitutions.js";

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

/**
 * Every form run_command accepts for one command: the argv itself, and its text inside `sh -c`,
 * `bash -c` and `env bash -c`. A shell form always asks as a whole; what a test looks at is how the
 * command inside was judged, which is what a maintainer reads in the approval comment.
 */
export function commandForms(argv: string[]): { form: string; argv: string[] }[] {
  const text = quoteWords(argv);
  return [
    { form: "argv", argv },
    { form: "sh -c", argv: ["sh", "-c", text] },
    { form: "bash -c", argv: ["bash", "-c", text] },
    { form: "env bash -c", argv: ["env", "bash", "-c", text] },
  ];
}

/** How each part whose program is `program` was judged (there must be one, or the test proves nothing). */
export function verdictsOf(program: string, argv: string[], rules: PolicyRule[]): { command: string; decision: string; rule: string }[] {
  const d = evaluate({ kind: "command", tool: "run_command", argv }, rules, "execute", { workspaceRoot: ROOT });
  const runs = (command: string) => {
    const words = command.replace(/^([A-Za-z_][A-Za-z0-9_]*=\S* )+/, "");
    return words === program || words.startsWith(`${program} `);
  };
  const parts = (d.parts ?? []).filter((p) => runs(p.command));
  if (parts.length === 0) throw new Error(`no part runs ${program} in ${JSON.stringify(argv)}`);
  return parts;
}
