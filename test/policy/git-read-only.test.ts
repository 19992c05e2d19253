import { RULE } from "../../src/policy/default-rules.js";
import { READ_ONLY_GIT_CONFIG, READ_ONLY_GIT_ENV, readOnlyArgv } from "../../src/policy/shell/read-only-git-run.js";
import { commandForms, judgeArgv, rulesWith, verdictsOf } from "./judge.js";

/**
 * `allow:git-read-only` names what is safe: the workspace's own repository (no `-C`, no directory set
 * by a wrapper, no repository or configuration from elsewhere), one of a few subcommands, and only
 * options listed for it. Anything else is for a human.
 */
const rules = rulesWith();

function neverReadOnly(argv: string[]) {
  for (const { form, argv: sent } of commandForms(argv)) {
    const allowed = verdictsOf("git", sent, rules).filter((v) => v.decision === "allow");
    expect({ form, allowed }).toEqual({ form, allowed: [] });
  }
}

describe("git read-only verdicts hold only with the workspace's own repository", () => {
  test.each([
    [["git", "-C", "bare.git", "diff", "HEAD~1", "HEAD"]],
    [["env", "-C", "bare.git", "git", "diff", "HEAD~1", "HEAD"]],
    [["env", "--chdir=bare.git", "git", "log", "-p"]],
    [["nice", "git", "-C", "bare.git", "show"]],
    [["git", "--bare", "log"]],
    [["git", "--git-dir=bare.git", "diff"]],
    [["git", "--work-tree=..", "status"]],
    [["git", "--namespace=x", "log"]],
    [["git", "--exec-path=.", "status"]],
    [["git", "-p", "log"]], // --paginate: the pager from configuration
  ])("%j", (argv) => {
    neverReadOnly(argv);
  });
});

// Found while probing: git takes any unambiguous prefix of a long option, so a list of refused
// options misses `--outp` (= --output, writes a file) and `--ext-d` (= --ext-diff, runs diff.external).
describe("only listed options: an abbreviation of a refused option is not listed", () => {
  test.each([
    [["git", "diff", "--outp=pwn.txt"]],
    [["git", "diff", "--ext-d", "HEAD~1"]],
    [["git", "log", "-p", "--textc"]],
    [["git", "show", "--show-signature"]], // runs gpg.program
    [["git", "log", "--no-index"]],
    [["git", "status", "--frobnicate"]],
  ])("%j", (argv) => {
    neverReadOnly(argv);
  });
});

describe("what stays allowed, read-only", () => {
  test.each([
    [["git", "status"]],
    [["git", "status", "--short", "--branch"]],
    [["git", "diff"]],
    [["git", "diff", "HEAD~1", "HEAD", "--", "src/a.ts"]],
    [["git", "diff", "--cached", "--stat"]],
    [["git", "log", "--oneline", "-5"]],
    [["git", "log", "-n", "3", "--format=%H %s", "--", "src"]],
    [["git", "show", "HEAD", "--stat"]],
    [["git", "show", "HEAD:src/a.ts"]],
    [["git", "--no-pager", "diff", "-U5"]],
  ])("%j", (argv) => {
    expect(judgeArgv(argv, rules)).toEqual({ decision: "allow", rule: RULE.ALLOW_GIT_READ });
  });
  test("a wrapper in front of git asks: its hardened argv is built only for git itself", () => {
    expect(judgeArgv(["timeout", "10", "git", "log"], rules).decision).toBe("ask");
  });
});

describe("a reader's git runs with Patchgate's own settings", () => {
  const config = READ_ONLY_GIT_CONFIG.flatMap((c) => ["-c", c]);
  test("first on argv, and diff programs off for the subcommands that diff", () => {
    expect(readOnlyArgv(["git", "diff", "HEAD"])).toEqual(["git", "--no-pager", ...config, "diff", "--no-ext-diff", "--no-textconv", "HEAD"]);
    expect(readOnlyArgv(["git", "--no-pager", "log", "-p"])).toEqual([
      "git",
      "--no-pager",
      ...config,
      "--no-pager",
      "log",
      "--no-ext-diff",
      "--no-textconv",
      "-p",
    ]);
    expect(readOnlyArgv(["git", "status"])).toEqual(["git", "--no-pager", ...config, "status"]);
  });
  test("other readers run as they are; every git the run starts gets the settings through its environment", () => {
    expect(readOnlyArgv(["ls", "-la"])).toEqual(["ls", "-la"]);
    expect(READ_ONLY_GIT_ENV.GIT_CONFIG_PARAMETERS.split("' '")).toHaveLength(READ_ONLY_GIT_CONFIG.length + 1);
    expect(READ_ONLY_GIT_ENV).toMatchObject({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" });
  });
});
