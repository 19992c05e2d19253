import { BUILTIN_RULE } from "../../src/policy/builtin-rules.js";
import { defaultRules, RULE, type DefaultRuleOptions } from "../../src/policy/default-rules.js";
import { evaluate } from "../../src/policy/approval-policy.js";
import { type ActionRequest } from "../../src/policy/types.js";
import { judgeArgv, judgeShell, ROOT, rulesWith } from "./judge.js";

/**
 * One pair per default rule: a command it denies (or decides) and a near miss it must leave alone.
 * `run(...argv)` is what run_command sends; `shell(text)` an explicit `sh -c text`.
 */
const run = (...argv: string[]) => judgeArgv(argv, rulesWith());
const runWith = (opts: DefaultRuleOptions, ...argv: string[]) => judgeArgv(argv, rulesWith(opts));
const shell = (text: string, opts: DefaultRuleOptions = { testCommand: "npm test" }) => judgeShell(text, rulesWith(opts));

function judgeRequest(request: ActionRequest, opts: DefaultRuleOptions = {}) {
  const d = evaluate(request, defaultRules(opts), "execute", { workspaceRoot: ROOT });
  return { decision: d.decision, rule: d.rule };
}

const deny = (rule: string) => ({ decision: "deny", rule });
const ask = (rule: string = BUILTIN_RULE.DEFAULT_ASK) => ({ decision: "ask", rule });
const allow = (rule: string) => ({ decision: "allow", rule });

describe("request kinds", () => {
  test(`${RULE.ALLOW_READ}: reads are allowed`, () => {
    expect(judgeRequest({ kind: "read", tool: "read_file", path: "src/a.ts" })).toEqual(allow(RULE.ALLOW_READ));
  });
  test(`${RULE.ALLOW_META}: plan/todo bookkeeping is allowed`, () => {
    expect(judgeRequest({ kind: "meta", tool: "update_todos" })).toEqual(allow(RULE.ALLOW_META));
  });
  test(`${RULE.ASK_WRITE}: an ordinary write asks`, () => {
    expect(judgeRequest({ kind: "write", tool: "write_file", path: "src/a.ts" })).toEqual(ask(RULE.ASK_WRITE));
  });
  test.each([".git/config", ".git/hooks/pre-commit", ".github/workflows/ci.yml", ".gitmodules", ".github/patchgate.yml"])(
    `${RULE.DENY_PROTECTED_PATH}: write to %s is denied`,
    (path) => {
      expect(judgeRequest({ kind: "write", tool: "write_file", path })).toEqual(deny(RULE.DENY_PROTECTED_PATH));
    },
  );
  test(`${RULE.DENY_PROTECTED_PATH}: near miss .github/ISSUE_TEMPLATE.md only asks`, () => {
    expect(judgeRequest({ kind: "write", tool: "write_file", path: ".github/ISSUE_TEMPLATE.md" })).toEqual(ask(RULE.ASK_WRITE));
  });
  test(`${RULE.DENY_PROTECTED_PATH}: extra protected globs from the repo config`, () => {
    expect(judgeRequest({ kind: "write", tool: "write_file", path: "infra/prod.tf" }, { protectedPaths: ["infra/**"] })).toEqual(
      deny(RULE.DENY_PROTECTED_PATH),
    );
  });
  test(`${RULE.DENY_PROTECTED_PATH}: differently cased .GIT/config is still denied`, () => {
    expect(judgeRequest({ kind: "write", tool: "write_file", path: ".GIT/config" })).toEqual(deny(RULE.DENY_PROTECTED_PATH));
  });
});

describe("the configured test and setup lines (the maintainer's shell)", () => {
  test(`${RULE.ALLOW_TEST_COMMAND}: the configured test command, exactly, as a shell line`, () => {
    expect(shell("npm test")).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: same text with other spacing`, () => {
    expect(shell("npm   test ")).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: near miss with extra arguments asks`, () => {
    expect(shell("npm test -- --watch")).toEqual(ask(BUILTIN_RULE.EXPLICIT_SHELL));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: near miss: the same words as argv are an npm script, which asks`, () => {
    expect(run("npm", "test")).toEqual(ask(BUILTIN_RULE.RUNS_FROM_DATA));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: a multi-command test command is allowed verbatim`, () => {
    expect(shell("npm run build && npm test", { testCommand: "npm run build && npm test" })).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: NODE_OPTIONS spelled out by the maintainer is not an env override`, () => {
    const testCommand = "NODE_OPTIONS=--experimental-vm-modules npx jest";
    expect(shell(testCommand, { testCommand })).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: without a configured test command npm test asks`, () => {
    expect(shell("npm test", {})).toEqual(ask(BUILTIN_RULE.EXPLICIT_SHELL));
  });
  test(`${RULE.ALLOW_SETUP_COMMAND}: an offline setup command is allowed`, () => {
    expect(shell("make deps", { setupCommand: "make deps" })).toEqual(allow(RULE.ALLOW_SETUP_COMMAND));
  });
  test(`${RULE.ALLOW_SETUP_COMMAND}: a networked setup command stays denied`, () => {
    expect(shell("npm ci", { setupCommand: "npm ci" })).toEqual(deny(RULE.DENY_NETWORK_INSTALL));
  });
  test("repo deny_commands beats the test command", () => {
    expect(shell("npm test", { testCommand: "npm test", denyCommands: ["npm"] })).toEqual(deny("deny:repo-command:npm"));
  });
});

describe("read-only commands", () => {
  const readOnlyOf = (...argv: string[]) => evaluate({ kind: "command", tool: "run_command", argv }, rulesWith(), "execute", { workspaceRoot: ROOT }).readOnly;
  test.each([
    ["ls", "-la"],
    ["cat", "src/a.ts"],
    ["head", "-n", "5", "README.md"],
    ["tail", "-n", "20", "log.txt"],
    ["wc", "-l", "src/a.ts"],
    ["grep", "-rn", "TODO", "src"],
    ["pwd"],
  ])(`${RULE.ALLOW_READ_ONLY_COMMAND}: %j, run read-only`, (...argv) => {
    expect(run(...argv)).toEqual(allow(RULE.ALLOW_READ_ONLY_COMMAND));
    expect(readOnlyOf(...argv)).toBe(true);
  });
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: near miss ./cat (a script in the workspace) asks`, () => {
    expect(run("./cat", "src/a.ts")).toEqual(ask());
  });
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: /bin/cat is still cat`, () => {
    expect(run("/bin/cat", "src/a.ts")).toEqual(allow(RULE.ALLOW_READ_ONLY_COMMAND));
  });
  test(`${RULE.ALLOW_FIND}: find that only prints`, () => {
    expect(run("find", "src", "-name", "*.ts")).toEqual(allow(RULE.ALLOW_FIND));
    expect(readOnlyOf("find", "src", "-name", "*.ts")).toBe(true);
  });
  test.each([
    ["find", ".", "-delete"],
    ["find", ".", "-fprint", "out.txt"],
  ])(`${RULE.ALLOW_FIND}: near miss %j asks`, (...argv) => {
    expect(run(...argv)).toEqual(ask());
  });
  test(`${RULE.ALLOW_FIND}: near miss find -exec runs a command per name: never allowed`, () => {
    expect(run("find", ".", "-exec", "cat", "{}", ";")).toEqual(ask(BUILTIN_RULE.RUNS_FROM_DATA));
  });
  test(`${RULE.ALLOW_RG}: ripgrep`, () => {
    expect(run("rg", "-n", "useState", "src")).toEqual(allow(RULE.ALLOW_RG));
  });
  test.each([
    ["rg", "--pre", "./x.sh", "foo"],
    ["rg", "--pre=./x.sh", "foo"],
    ["rg", "--hostname-bin=./x", "foo"],
  ])(`${RULE.ALLOW_RG}: near miss %j asks`, (...argv) => {
    expect(run(...argv)).toEqual(ask());
  });
  test(`${RULE.ALLOW_RG}: near miss env RIPGREP_CONFIG_PATH=cfg rg (a config file can hold --pre) asks`, () => {
    expect(run("env", "RIPGREP_CONFIG_PATH=cfg", "rg", "x")).toEqual(ask(BUILTIN_RULE.ENV_OVERRIDE));
  });
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: near miss env GCONV_PATH=. ls (glibc loads modules from there) asks`, () => {
    expect(run("env", "GCONV_PATH=.", "ls")).toEqual(ask(BUILTIN_RULE.ENV_OVERRIDE));
  });
  test.each([
    ["git", "status"],
    ["git", "diff", "HEAD~1"],
    ["git", "log", "--oneline", "-5"],
    ["git", "show", "HEAD"],
    ["git", "--no-pager", "diff"],
  ])(`${RULE.ALLOW_GIT_READ}: %j`, (...argv) => {
    expect(run(...argv)).toEqual(allow(RULE.ALLOW_GIT_READ));
  });
  test.each([
    ["git", "diff", "--output=patch.txt"],
    ["git", "diff", "--ext-diff"],
    ["git", "log", "-p", "--textconv"],
    ["git", "commit", "-m", "x"],
  ])(`${RULE.ALLOW_GIT_READ}: near miss %j asks`, (...argv) => {
    expect(run(...argv)).toEqual(ask());
  });
  test.each([
    ["git", "-c", "color.ui=always", "log"],
    ["git", "--git-dir=elsewhere", "status"],
    ["git", "--config-env=core.pager=X", "log"],
  ])(`${RULE.ALLOW_GIT_READ}: near miss %j (configuration from data) is never allowed`, (...argv) => {
    expect(run(...argv)).toEqual(ask(BUILTIN_RULE.RUNS_FROM_DATA));
  });
  test(`${RULE.ALLOW_WRAPPER}: timeout around a read-only command is allowed, read-only`, () => {
    expect(run("timeout", "60", "ls")).toEqual(allow(RULE.ALLOW_WRAPPER));
    expect(readOnlyOf("timeout", "60", "ls")).toBe(true);
  });
  test(`${RULE.ALLOW_WRAPPER}: near miss: a wrapper around an unknown command asks`, () => {
    expect(run("nice", "-n", "5", "frobnicate")).toEqual(ask());
  });
  test(`${RULE.ALLOW_WRAPPER}: near miss: ./timeout (a workspace script) is not the wrapper`, () => {
    expect(run("./timeout", "5", "ls")).toEqual(ask());
  });
  // getopt reads the word after these options as their value, so `echo` is not the command that runs.
  test.each([
    ["env", "--unse", "echo", "rm", "-rf", "src"], // abbreviation of --unset
    ["env", "-iu", "echo", "rm", "-rf", "src"], // u takes the next word inside a cluster
    ["env", "--ch", "echo", "rm", "-rf", "src"], // abbreviation of --chdir
    ["time", "--form", "echo", "rm", "-rf", "src"],
  ])(`${RULE.ALLOW_WRAPPER}: near miss %j judges the command that really runs`, (...argv) => {
    expect(run(...argv)).toEqual(ask());
  });
  test(`${RULE.ALLOW_WRAPPER}: an option of unknown arity is read both ways, so a deny inside still denies`, () => {
    expect(run("env", "--unse", "X", "git", "push")).toEqual(deny(RULE.DENY_GIT_PUSH));
    expect(run("timeout", "--frobnicate", "5", "10", "git", "push")).toEqual(deny(RULE.DENY_GIT_PUSH));
  });
  test.each([
    ["time", "-o", ".github/patchgate.yml", "true"],
    ["time", "--out", "x", "ls"],
    ["time", "-vo", "x", "ls"],
  ])(`${RULE.ALLOW_WRAPPER}: near miss %j (time writes its report to a file) asks`, (...argv) => {
    expect(run(...argv)).toEqual(ask());
  });
});

describe("programs that run what data says are never allowed", () => {
  const permissive = { allowCommands: ["sh", "bash", "xargs", "env", "find", "git", "npm", "yarn"] };
  test.each([
    [["sh", "-c", "ls src"], BUILTIN_RULE.EXPLICIT_SHELL],
    [["bash", "build.sh"], BUILTIN_RULE.EXPLICIT_SHELL],
    [["bash", "-ic", "ls src"], BUILTIN_RULE.EXPLICIT_SHELL],
    [["xargs", "ls"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["env", "-S", "ls src"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["env", "--spl", "ls src"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["env", "-iS", "ls src"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["find", ".", "-execdir", "ls", ";"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["git", "-c", "color.ui=always", "log"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["npm", "run", "lint"], BUILTIN_RULE.RUNS_FROM_DATA],
    [["yarn", "lint"], BUILTIN_RULE.RUNS_FROM_DATA],
  ])("%j asks, even when allow_commands names it", (argv, rule) => {
    expect(run(...argv)).toEqual(ask(rule));
    expect(runWith(permissive, ...argv)).toEqual(ask(rule));
  });
});

describe("repository prefixes", () => {
  test("repo allow_commands allows exactly its words (extra words only through extra_args)", () => {
    const opts = { allowCommands: ["prettier --check"] };
    expect(runWith(opts, "prettier", "--check")).toEqual(allow("allow:repo-command:prettier --check"));
    expect(runWith(opts, "prettier", "--check", "--write")).toEqual(ask());
  });
  test("repo allow_commands: near miss prettier --check:all asks (words, not text)", () => {
    expect(runWith({ allowCommands: ["prettier --check"] }, "prettier", "--check:all")).toEqual(ask());
  });
  test("repo allow_commands does not run read-only: the maintainer's program may write", () => {
    const d = evaluate({ kind: "command", tool: "run_command", argv: ["prettier", "--check"] }, rulesWith({ allowCommands: ["prettier --check"] }), "execute", {
      workspaceRoot: ROOT,
    });
    expect(d.readOnly).toBe(false);
  });
  test("repo allow_commands with an environment prefix or operators is dropped, not guessed", () => {
    expect(runWith({ allowCommands: ["CI=1 prettier"] }, "env", "CI=1", "prettier")).toEqual(ask());
    expect(runWith({ allowCommands: ["prettier a && prettier b"] }, "prettier", "a")).toEqual(ask());
  });
  test("repo allow_commands cannot lift a default deny", () => {
    expect(runWith({ allowCommands: ["git push"] }, "git", "push")).toEqual(deny(RULE.DENY_GIT_PUSH));
  });
  test("repo deny_commands prefix denies", () => {
    expect(runWith({ denyCommands: ["make deploy"] }, "make", "deploy", "prod")).toEqual(deny("deny:repo-command:make deploy"));
  });
  test("repo deny_commands prefix: near miss make test asks", () => {
    expect(runWith({ denyCommands: ["make deploy"] }, "make", "test")).toEqual(ask(BUILTIN_RULE.RUNS_FROM_DATA));
  });
  test("repo deny_commands with operators denies that exact shell line", () => {
    expect(shell("make a && make b", { denyCommands: ["make a && make b"] })).toEqual(deny("deny:repo-command:make a && make b"));
  });
  test("unknown commands ask", () => {
    expect(run("frobnicate")).toEqual(ask());
    expect(run("make")).toEqual(ask(BUILTIN_RULE.RUNS_FROM_DATA));
  });
});
