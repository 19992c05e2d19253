import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { defaultRules, type DefaultRuleOptions } from "../../src/policy/default-rules.js";
import { commandForms, judgeArgv, verdictsOf } from "./judge.js";

/**
 * A repository's `allow_commands` entry names exactly the words it allows. Extra words go only where
 * the entry says, and only the ones it lists: `make lint --eval=…` is not `make lint`.
 */
const rules = (allowCommands: DefaultRuleOptions["allowCommands"]) => defaultRules({ testCommand: "npm test", allowCommands });

/** In every form, the part running `program` is not allowed (a human reads it, or it is refused). */
function neverAllowed(program: string, argv: string[], allowCommands: DefaultRuleOptions["allowCommands"]) {
  for (const { form, argv: sent } of commandForms(argv)) {
    const verdicts = verdictsOf(program, sent, rules(allowCommands));
    expect({ form, allowed: verdicts.filter((v) => v.decision === "allow") }).toEqual({ form, allowed: [] });
  }
}

describe("an allow_commands entry allows exactly its words", () => {
  test("make lint --eval=… (the README's own example, extra words) is not make lint", () => {
    neverAllowed("make", ["make", "lint", "--eval=$(shell touch PWNED)"], ["make lint"]);
  });
  // Found while probing: a plugin option turns a formatter into a loader of workspace code, and a
  // wrapper in front changes nothing.
  test("prettier --check --plugin=./evil.mjs is not prettier --check", () => {
    neverAllowed("prettier", ["prettier", "--check", "--plugin=./evil.mjs", "src"], ["prettier --check"]);
    neverAllowed("prettier", ["timeout", "60", "prettier", "--check", "--plugin=./evil.mjs"], ["prettier --check"]);
  });
  test("the declared words alone are allowed, and not read-only (the maintainer's program may write)", () => {
    expect(judgeArgv(["prettier", "--check"], rules(["prettier --check"]))).toEqual({ decision: "allow", rule: "allow:repo-command:prettier --check" });
    expect(verdictsOf("prettier", ["timeout", "60", "prettier", "--check"], rules(["prettier --check"]))).toEqual([
      { command: "prettier --check", decision: "allow", rule: "allow:repo-command:prettier --check" },
    ]);
  });
  test("a near miss on the words asks", () => {
    expect(judgeArgv(["prettier", "--check:all"], rules(["prettier --check"]))).toEqual({ decision: "ask", rule: BUILTIN_RULE.DEFAULT_ASK });
    expect(judgeArgv(["prettier"], rules(["prettier --check"]))).toEqual({ decision: "ask", rule: BUILTIN_RULE.DEFAULT_ASK });
  });
});

describe("extra_args: where extra words may go, and which", () => {
  const entry = [{ command: "prettier --check", extra_args: ["src/**", "test/**/*.ts", "--cache"] }];
  test.each([[["prettier", "--check", "src/a.ts"]], [["prettier", "--check", "src/deep/b.js", "test/x/y.ts", "--cache"]]])(
    "%j: every extra word matches a listed pattern",
    (argv) => {
      expect(judgeArgv(argv, rules(entry))).toEqual({ decision: "allow", rule: "allow:repo-command:prettier --check" });
    },
  );
  test.each([
    [["prettier", "--check", "--plugin=./evil.mjs"]], // an option nobody listed
    [["prettier", "--check", "src/a.ts", "--plugin", "x"]],
    [["prettier", "--check", "lib/a.ts"]], // a path outside the patterns
    [["prettier", "--check", "src/../../etc/passwd"]], // `..` leaves the pattern's directory
    [["prettier", "--check", "/srv/ws/src/a.ts"]], // absolute
    [["prettier", "--check", "test/a.js"]],
    [["prettier", "--check", "--cache=x"]],
  ])("%j asks", (argv) => {
    expect(judgeArgv(argv, rules(entry)).decision).toBe("ask");
  });
  test("a bare `*` pattern still never admits an option: options are listed one by one", () => {
    expect(judgeArgv(["prettier", "--check", "--plugin=x"], rules([{ command: "prettier --check", extra_args: ["*"] }])).decision).toBe("ask");
    expect(judgeArgv(["prettier", "--check", "a.ts"], rules([{ command: "prettier --check", extra_args: ["*"] }])).decision).toBe("allow");
  });
});

describe("what an argsPrefix rule never allows, whatever it names", () => {
  test.each([
    ["make", ["make", "lint"], ["make lint"]], // make runs the recipes of a Makefile the session may change
    ["make", ["make", "-C", "sub", "lint"], ["make -C sub lint"]],
    ["gmake", ["gmake", "lint"], ["gmake lint"]],
    ["npm", ["npm", "run", "lint"], ["npm run lint"]],
    ["npx", ["npx", "eslint"], ["npx eslint"]],
    ["git", ["git", "-C", "sub", "status"], ["git -C sub status"]],
    ["git", ["git", "--exec-path=.", "status"], ["git --exec-path=. status"]],
    ["git", ["git", "--namespace=x", "log"], ["git --namespace=x log"]],
    ["git", ["git", "-c", "core.pager=cat", "log"], ["git -c core.pager=cat log"]],
    ["git", ["git", "commit"], ["git commit"]], // runs hooks and filters from configuration
    ["git", ["git", "grep", "x"], ["git grep x"]],
    ["git", ["git", "archive", "HEAD"], ["git archive HEAD"]],
    ["git", ["git", "ls-files", "-m"], ["git ls-files -m"]], // refreshes the index: a clean filter may run
    ["git", ["git", "rev-list", "--format=%G?", "HEAD"], ["git rev-list --format=%G? HEAD"]], // verifies signatures with gpg.program
    ["pytest", ["env", "-C", "sub", "pytest"], ["pytest"]], // a wrapper that changes directory
    ["pytest", ["env", "--chdir=sub", "pytest"], ["pytest"]],
    ["git", ["env", "GIT_DIR=sub/.git", "git", "rev-parse", "HEAD"], ["git rev-parse HEAD"]],
  ])("%s: %j with allow_commands %j", (program, argv, allowCommands) => {
    neverAllowed(program, argv, allowCommands);
  });
  test("env -S splits a string into the command it runs: the whole asks (as before), the words inside are not vouched for", () => {
    expect(judgeArgv(["env", "-S", "pytest"], rules(["pytest"]))).toEqual({ decision: "ask", rule: BUILTIN_RULE.RUNS_FROM_DATA });
  });
  test("git plumbing that runs nothing configured may be named exactly", () => {
    expect(judgeArgv(["git", "rev-parse", "HEAD"], rules(["git rev-parse HEAD"]))).toEqual({
      decision: "allow",
      rule: "allow:repo-command:git rev-parse HEAD",
    });
  });
});
