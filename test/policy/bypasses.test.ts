import { applyStandingAnswers } from "../../src/policy/standing-answers.js";
import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { defaultRules } from "../../src/policy/default-rules.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { type ActionRequest } from "../../src/policy/types.js";
import { plainWords, ROOT } from "./judge.js";

/**
 * Issue 9, item 1: with only the plan approved, each of these was judged `allow:read-only-command`
 * and ran without approval, because the words that ran were produced by the shell at run time. Under
 * the argv policy the shell text itself is never allowed, and the same characters sent as argv are
 * literal words: whatever is allowed runs read-only and runs exactly what the policy read.
 */
const rules = defaultRules({ testCommand: "npm test" });
const judge = (argv: string[]) => {
  const request: ActionRequest = { kind: "command", tool: "run_command", argv };
  const verdict = evaluate(request, rules, "execute", { workspaceRoot: ROOT });
  return { verdict, unattended: applyStandingAnswers(verdict, request, { autoApproveWrites: true, unattended: true }) };
};

const SEEN = [
  "find . $(echo -delete)",
  "git diff ${X:---output=pwn.txt}",
  "echo -delete | xargs find .",
  "env -S 'find .\\_-delete'",
  "sh -c 'find . \"$@\"' sh -delete",
  "bash -c 'find . {-delete,}'",
  "find . -maxdepth 0 $(echo -exec sh -c 'echo${IFS}pwned>PWNED.txt' {} +)",
];

describe("the bypasses seen, sent as an explicit shell", () => {
  test.each(SEEN)("sh -c %j asks, and is refused when nobody is watching", (text) => {
    const { verdict, unattended } = judge(["sh", "-c", text]);
    expect(verdict.decision).toBe("ask");
    expect(unattended).toMatchObject({ decision: "deny", rule: BUILTIN_RULE.UNATTENDED });
  });
});

describe("the same words as argv: literal, and never a writer", () => {
  test.each(SEEN.filter((t) => plainWords(t) !== null))("%j", (text) => {
    const { verdict } = judge(plainWords(text)!);
    if (verdict.decision === "allow") expect(verdict.readOnly).toBe(true);
    else expect(verdict.decision).toBe("ask");
  });
});

// The same class in the forms a shell no longer hides: the program that runs comes from data.
describe("wrappers that run programs from data are never allowed", () => {
  test.each([
    [["find", ".", "-maxdepth", "0", "-exec", "sh", "-c", "echo${IFS}pwned>PWNED.txt", "{}", "+"]],
    [["find", ".", "-okdir", "rm", "{}", ";"]],
    [["xargs", "find", "."]],
    [["xargs", "-a", "args.txt", "find", "."]],
    [["env", "-S", "find . -delete"]],
    [["env", "-vS", "find . -delete"]],
    [["env", "--split-string=find . -delete"]],
    [["sh", "-c", 'find . "$@"', "sh", "-delete"]],
    [["bash", "-c", "find . {-delete,}"]],
    [["bash", "script.sh"]],
    [["busybox", "sh", "-c", "ls"]],
    [["timeout", "5", "sh", "-c", "ls"]],
    [["nice", "xargs", "ls"]],
    [["env", "-C", ".", "sh", "-c", "ls"]],
    [["git", "-c", "color.ui=always", "diff"]],
    [["git", "--config-env=diff.external=X", "diff"]],
    [["git", "--git-dir=build/repo", "status"]],
    [["git", "rebase", "--exec", "rm -rf src", "HEAD~1"]],
    [["npm", "run", "lint"]],
    [["npm", "exec", "--", "eslint", "."]],
    [["npx", "eslint", "."]],
    [["yarn", "lint"]],
    [["pnpm", "test"]],
  ])("%j", (argv) => {
    const { verdict, unattended } = judge(argv);
    expect(verdict.decision).not.toBe("allow");
    expect(unattended.decision).toBe("deny");
  });
  test("git diff --output writes a file: not a reader", () => {
    expect(judge(["git", "diff", "--output=pwn.txt"]).verdict.decision).toBe("ask");
  });
});
