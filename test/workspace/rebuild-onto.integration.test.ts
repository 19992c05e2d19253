import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { cleanupTempDirs, makeSource, sh, tempDir, write } from "./git-fixtures.js";

const BRANCH = "patchgate/issue-1";
const author = { name: "Patchgate", email: "bot@patchgate.test" };

/** A maintainer's commit on top of the session's base, made in the source and fetched into the clone (as the lease's fetch does). */
function humanCommit(src: string, ws: GitWorkspace, files: Record<string, string>): string {
  sh(src, "checkout", "--quiet", "-b", "human");
  for (const [p, c] of Object.entries(files)) write(src, p, c);
  sh(src, "add", "-A");
  sh(src, "commit", "--quiet", "-m", "a maintainer's commit");
  const sha = sh(src, "rev-parse", "HEAD");
  sh(ws.root, "fetch", "--quiet", "origin", "human");
  return sha;
}

afterEach(cleanupTempDirs);

describe("rebuildOnto: the session's published change on top of someone's commits", () => {
  test("only the ledger's paths travel; setup output stays on disk but is never published", async () => {
    const src = makeSource();
    const ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
    write(ws.root, "src/parse.txt", "fixed by the agent\n");
    write(ws.root, "package-lock.json", "{ created by the runtime's install }\n"); // untracked, not ignored
    write(ws.root, "README.md", "rewritten by setup\n"); // tracked, not a publishable path
    const human = humanCommit(src.dir, ws, { "docs/NOTES.md": "notes\n" });

    const rebuilt = await ws.rebuildOnto(BRANCH, human, ["src/parse.txt"]);
    if (!rebuilt.ok) throw new Error(rebuilt.why);
    const moved = rebuilt.workspace;
    expect(moved.baseCommit).toBe(human);
    // The working tree has the maintainer's file; what setup left (installs, rewrites) is still there.
    expect(readFileSync(join(ws.root, "docs/NOTES.md"), "utf8")).toBe("notes\n");
    expect(existsSync(join(ws.root, "package-lock.json"))).toBe(true);
    expect(readFileSync(join(ws.root, "README.md"), "utf8")).toBe("rewritten by setup\n");

    const sha = await moved.commit({
      branch: BRANCH,
      message: "fix",
      author,
      paths: ["src/parse.txt"],
      expectTree: await moved.publishedTree(["src/parse.txt"]),
    });
    expect(sh(ws.root, "rev-parse", `${sha}^`)).toBe(human);
    expect(sh(ws.root, "diff", "--name-status", human, sha)).toBe("M\tsrc/parse.txt");
    expect(sh(ws.root, "show", `${sha}:README.md`)).toBe("# widgets");
  });

  test("a maintainer's change to a path the session wrote conflicts: nothing on disk moves", async () => {
    const src = makeSource();
    const ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
    write(ws.root, "src/parse.txt", "the agent's line one\nline two\nline three\n");
    const human = humanCommit(src.dir, ws, { "src/parse.txt": "the maintainer's line one\nline two\nline three\n" });
    const rebuilt = await ws.rebuildOnto(BRANCH, human, ["src/parse.txt"]);
    expect(rebuilt).toEqual({ ok: false, why: "the session's change conflicts with them", conflicts: ["src/parse.txt"] });
    expect(readFileSync(join(ws.root, "src/parse.txt"), "utf8")).toBe("the agent's line one\nline two\nline three\n");
  });
});
