import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { evaluate } from "../../src/policy/approval-policy.js";
import { defaultRules } from "../../src/policy/default-rules.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import { makeRepo } from "../helpers/git-fixture.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { dataOf, type ToolHarness } from "./helpers/tool-harness.js";

/**
 * A bare repository committed into the workspace, whose config sets `diff.external`: a "read-only"
 * `git diff` pointed at it runs that program. Real git, real bubblewrap: the policy no longer calls it
 * a reader, and a run the policy did call a reader carries Patchgate's own `-c` settings, so even a
 * wrong verdict runs no configured program.
 */
const MARKER = "EXTERNAL-DIFF-RAN";

function plantBareRepo(h: ToolHarness): void {
  const src = makeRepo({ "a.txt": "one\n" }, "pg-bare-src-");
  try {
    const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, stdio: "pipe" });
    execFileSync("sh", ["-c", "echo two > a.txt"], { cwd: src.dir });
    git(src.dir, "-c", "user.name=F", "-c", "user.email=f@example.invalid", "commit", "-qam", "two");
    git(h.workspace.root, "clone", "-q", "--bare", src.dir, "bare.git");
    git(join(h.workspace.root, "bare.git"), "config", "diff.external", `echo ${MARKER}; true`);
  } finally {
    src.cleanup();
  }
}

describe("git read-only runs use only the workspace's own repository, with its programs switched off", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });
  const rules = defaultRules({ testCommand: "npm test" });

  test.each([[["git", "-C", "bare.git", "diff", "HEAD~1", "HEAD"]], [["env", "-C", "bare.git", "git", "diff", "HEAD~1", "HEAD"]]])(
    "%j is not judged a reader, and a reader's run of it does not run diff.external",
    async (argv) => {
      const h = await make({ "README.md": "x\n" }, { sandbox });
      plantBareRepo(h);
      // The planted program really runs when a human approves the command: the fixture is live.
      const approved = dataOf((await h.call(runCommandTool, { argv }, { by: "human" })).result);
      expect(String(approved.stdout)).toContain(MARKER);

      const verdict = evaluate({ kind: "command", tool: "run_command", argv }, rules, "execute", { workspaceRoot: h.workspace.root });
      expect(verdict.decision).not.toBe("allow");
      // Defense in depth: were the verdict wrong, the read-only run still runs no configured program.
      const forced = dataOf((await h.call(runCommandTool, { argv }, { by: "policy", readOnly: true })).result);
      expect({ stdout: String(forced.stdout).includes(MARKER), stderr: String(forced.stderr).includes(MARKER) }).toEqual({ stdout: false, stderr: false });
    },
  );

  test("git diff of the workspace itself, judged a reader, runs and shows the change", async () => {
    const h = await make({ "a.txt": "one\n" }, { sandbox });
    execFileSync("sh", ["-c", "echo two > a.txt"], { cwd: h.workspace.root });
    const argv = ["git", "diff", "--stat"];
    const verdict = evaluate({ kind: "command", tool: "run_command", argv }, rules, "execute", { workspaceRoot: h.workspace.root });
    expect([verdict.decision, verdict.readOnly]).toEqual(["allow", true]);
    const data = dataOf((await h.call(runCommandTool, { argv }, { by: "policy", readOnly: true })).result);
    expect([data.exit_code, data.read_only, data.stdout]).toEqual([0, true, " a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"]);
  });
});
