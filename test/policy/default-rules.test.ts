import { BUILTIN_RULE, defaultRules, evaluate, RULE, type ActionRequest, type DefaultRuleOptions } from "../../src/policy/index.js";

/**
 * One pair per default rule: a command it denies (or decides) and a near miss it must leave alone.
 * The workspace root is a fixed string: these rules never touch the disk.
 */
const ROOT = "/srv/ws";

function judge(command: string, opts: DefaultRuleOptions = { testCommand: "npm test" }) {
  const d = evaluate({ kind: "command", tool: "run_command", command }, defaultRules(opts), "execute", { workspaceRoot: ROOT });
  return { decision: d.decision, rule: d.rule };
}

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
    expect(judgeRequest({ kind: "write", tool: "write_file", path: "infra/prod.tf" }, { protectedPaths: ["infra/**"] })).toEqual(deny(RULE.DENY_PROTECTED_PATH));
  });
  test(`${RULE.DENY_PROTECTED_PATH}: differently cased .GIT/config is still denied`, () => {
    expect(judgeRequest({ kind: "write", tool: "write_file", path: ".GIT/config" })).toEqual(deny(RULE.DENY_PROTECTED_PATH));
  });
});

describe("allowed commands", () => {
  test(`${RULE.ALLOW_TEST_COMMAND}: the configured test command, exactly`, () => {
    expect(judge("npm test")).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: same argv with other spacing`, () => {
    expect(judge("npm   test ")).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: near miss with extra arguments asks`, () => {
    expect(judge("npm test -- --watch")).toEqual(ask());
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: a multi-command test command is allowed verbatim`, () => {
    expect(judge("npm run build && npm test", { testCommand: "npm run build && npm test" })).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: NODE_OPTIONS spelled out by the maintainer is not an env override`, () => {
    const testCommand = "NODE_OPTIONS=--experimental-vm-modules npx jest";
    expect(judge(testCommand, { testCommand })).toEqual(allow(RULE.ALLOW_TEST_COMMAND));
  });
  test(`${RULE.ALLOW_TEST_COMMAND}: without a configured test command npm test asks`, () => {
    expect(judge("npm test", {})).toEqual(ask());
  });
  test(`${RULE.ALLOW_SETUP_COMMAND}: an offline setup command is allowed`, () => {
    expect(judge("make deps", { setupCommand: "make deps" })).toEqual(allow(RULE.ALLOW_SETUP_COMMAND));
  });
  test(`${RULE.ALLOW_SETUP_COMMAND}: a networked setup command stays denied`, () => {
    expect(judge("npm ci", { setupCommand: "npm ci" })).toEqual(deny(RULE.DENY_NETWORK_INSTALL));
  });
  test.each(["ls -la", "cat src/a.ts", "head -n 5 README.md", "tail -n 20 log.txt", "wc -l src/a.ts", "grep -rn TODO src", "pwd"])(
    `${RULE.ALLOW_READ_ONLY_COMMAND}: %s`,
    (command) => {
      expect(judge(command)).toEqual(allow(RULE.ALLOW_READ_ONLY_COMMAND));
    },
  );
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: near miss ./cat (a script in the workspace) asks`, () => {
    expect(judge("./cat src/a.ts")).toEqual(ask());
  });
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: /bin/cat is still cat`, () => {
    expect(judge("/bin/cat src/a.ts")).toEqual(allow(RULE.ALLOW_READ_ONLY_COMMAND));
  });
  test(`${RULE.ALLOW_FIND}: find that only prints`, () => {
    expect(judge("find src -name '*.ts'")).toEqual(allow(RULE.ALLOW_FIND));
  });
  test.each(["find . -delete", "find . -exec touch {} ;", "find . -fprint out.txt"])(`${RULE.ALLOW_FIND}: near miss %s asks`, (command) => {
    expect(judge(command).decision).toBe("ask");
  });
  test(`${RULE.ALLOW_RG}: ripgrep`, () => {
    expect(judge("rg -n useState src")).toEqual(allow(RULE.ALLOW_RG));
  });
  test.each(["rg --pre ./x.sh foo", "rg --pre=./x.sh foo", "rg --hostname-bin=./x foo"])(`${RULE.ALLOW_RG}: near miss %s asks`, (command) => {
    expect(judge(command)).toEqual(ask());
  });
  test.each(["echo --pre=bash | RIPGREP_CONFIG_PATH=/dev/stdin rg x src", "env RIPGREP_CONFIG_PATH=cfg rg x"])(
    `${RULE.ALLOW_RG}: near miss %s (a config file can hold --pre) asks`,
    (command) => {
      expect(judge(command)).toEqual(ask(BUILTIN_RULE.ENV_OVERRIDE));
    },
  );
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: near miss GCONV_PATH=. ls (glibc loads modules from there) asks`, () => {
    expect(judge("GCONV_PATH=. ls")).toEqual(ask(BUILTIN_RULE.ENV_OVERRIDE));
  });
  test.each(["git status", "git diff HEAD~1", "git log --oneline -5", "git show HEAD", "git --no-pager diff"])(`${RULE.ALLOW_GIT_READ}: %s`, (command) => {
    expect(judge(command)).toEqual(allow(RULE.ALLOW_GIT_READ));
  });
  test.each(["git diff --output=patch.txt", "git diff --ext-diff", "git commit -m x", "git -c color.ui=always log"])(`${RULE.ALLOW_GIT_READ}: near miss %s asks`, (command) => {
    expect(judge(command)).toEqual(ask());
  });
  test(`${RULE.ALLOW_WRAPPER}: timeout around the test command is allowed`, () => {
    expect(judge("timeout 60 npm test")).toEqual(allow(RULE.ALLOW_WRAPPER));
  });
  test(`${RULE.ALLOW_WRAPPER}: near miss: a wrapper around an unknown command asks`, () => {
    expect(judge("nice -n 5 make")).toEqual(ask());
  });
  test(`${RULE.ALLOW_WRAPPER}: bash -c around a read-only command`, () => {
    expect(judge("bash -c 'ls src'")).toEqual(allow(RULE.ALLOW_WRAPPER));
  });
  test(`${RULE.ALLOW_WRAPPER}: near miss: an interactive shell (reads rc files) asks`, () => {
    expect(judge("bash -ic 'ls src'")).toEqual(ask());
  });
  test(`${RULE.ALLOW_WRAPPER}: near miss: ./timeout (a workspace script) is not the wrapper`, () => {
    expect(judge("./timeout 5 ls")).toEqual(ask());
  });
  // getopt reads the word after these options as their value, so `echo` is not the command that runs.
  test.each([
    "env --unse echo rm -rf src", // abbreviation of --unset
    "env -iu echo rm -rf src", // u takes the next word inside a cluster
    "env --ch echo rm -rf src", // abbreviation of --chdir
    "echo a | xargs --process-slot-var echo rm -rf src",
    "echo a | xargs -0I echo rm -rf src",
    "time --form echo rm -rf src",
    "env --spl 'rm -rf src'", // abbreviation of --split-string
    "env -iS 'rm -rf src'",
  ])(`${RULE.ALLOW_WRAPPER}: near miss %s judges the command that really runs`, (command) => {
    expect(judge(command)).toEqual(ask());
  });
  test.each(["ls a#b; rm -rf src", "echo x#`rm -rf src`", "ls a\\ #b; rm -rf src"])(
    `${RULE.ALLOW_READ_ONLY_COMMAND}: near miss %s (the # is no comment to sh, so rm runs) asks`,
    (command) => {
      expect(judge(command)).toEqual(ask());
    },
  );
  test(`${RULE.ALLOW_READ_ONLY_COMMAND}: near miss: a lone CR (sh reads on past it) is unparseable`, () => {
    expect(judge("echo a\r#x; rm -rf src")).toEqual(deny(BUILTIN_RULE.UNPARSEABLE));
  });
  test(`${RULE.ALLOW_WRAPPER}: an option of unknown arity is read both ways, so a deny inside still denies`, () => {
    expect(judge("env --unse X git push")).toEqual(deny(RULE.DENY_GIT_PUSH));
    expect(judge("timeout --frobnicate 5 10 git push")).toEqual(deny(RULE.DENY_GIT_PUSH));
  });
  test.each(["time -o .github/patchgate.yml true", "time --out x ls", "time -vo x ls"])(
    `${RULE.ALLOW_WRAPPER}: near miss %s (time writes its report to a file) asks`,
    (command) => {
      expect(judge(command)).toEqual(ask());
    },
  );
  test(`${RULE.ALLOW_WRAPPER}: bash running a script file is not a wrapper`, () => {
    expect(judge("bash build.sh")).toEqual(ask());
  });
  test("repo allow_commands prefix allows the prefix and longer", () => {
    const opts = { allowCommands: ["npm run lint"] };
    expect(judge("npm run lint", opts)).toEqual(allow("allow:repo-command:npm run lint"));
    expect(judge("npm run lint -- --fix", opts)).toEqual(allow("allow:repo-command:npm run lint"));
  });
  test("repo allow_commands prefix: near miss npm run lint:fix asks (token prefix, not text prefix)", () => {
    expect(judge("npm run lint:fix", { allowCommands: ["npm run lint"] })).toEqual(ask());
  });
  test("repo allow_commands with an environment prefix matches that exact command only", () => {
    const opts = { allowCommands: ["CI=1 npm run e2e"] };
    expect(judge("CI=1 npm run e2e", opts)).toEqual(allow("allow:repo-command:CI=1 npm run e2e"));
    expect(judge("npm run e2e", opts)).toEqual(ask());
  });
  test("repo allow_commands with operators is dropped, not guessed", () => {
    expect(judge("make a", { allowCommands: ["make a && make b"] })).toEqual(ask());
  });
  test("repo allow_commands cannot lift a default deny", () => {
    expect(judge("git push", { allowCommands: ["git push"] })).toEqual(deny(RULE.DENY_GIT_PUSH));
  });
  test("repo deny_commands prefix denies", () => {
    expect(judge("make deploy prod", { denyCommands: ["make deploy"] })).toEqual(deny("deny:repo-command:make deploy"));
  });
  test("repo deny_commands prefix: near miss make test asks", () => {
    expect(judge("make test", { denyCommands: ["make deploy"] })).toEqual(ask());
  });
  test("repo deny_commands beats the test command", () => {
    expect(judge("npm test", { testCommand: "npm test", denyCommands: ["npm"] })).toEqual(deny("deny:repo-command:npm"));
  });
  test("unknown commands ask", () => {
    expect(judge("make")).toEqual(ask());
  });
});
