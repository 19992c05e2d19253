import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cloneWorkspace } from "../../src/workspace/clone.js";
import { WorkspaceError } from "../../src/workspace/workspace-error.js";
import { type CommitOptions } from "../../src/workspace/types.js";
import { type GitWorkspace } from "../../src/workspace/git-workspace.js";
import { cleanupTempDirs, makeBare, makeSource, sh, tempDir, write } from "./git-fixtures.js";

let src: { dir: string; head: string };
let ws: GitWorkspace;
const author = { name: "Patchgate", email: "bot@patchgate.test" };
// The paths these tests write, as a session's ledger would list them.
const WRITTEN = ["src/parse.txt", "new.txt", "a.txt", "b.txt"];
const commitOpts = (extra: Partial<CommitOptions> = {}): CommitOptions => ({
  branch: "patchgate/issue-1",
  message: "Fix the parser",
  author,
  paths: WRITTEN,
  ...extra,
});

beforeEach(async () => {
  src = makeSource();
  ws = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "ws") });
});
afterEach(cleanupTempDirs);

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!WorkspaceError.isInstance(e)) throw new Error(`expected a WorkspaceError, got ${String(e)}`);
  return e.code;
}

describe("commit", () => {
  test("records author, message and Co-authored-by trailers on a new branch from the base", async () => {
    write(ws.root, "src/parse.txt", "fixed\n");
    const sha = await ws.commit(
      commitOpts({
        coAuthors: [
          { name: "Alice", email: "alice@example.test" },
          { name: "Bob", email: "bob@example.test" },
        ],
      }),
    );
    const log = sh(ws.root, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%P|%(trailers:key=Co-authored-by,valueonly,separator=;)", sha);
    expect(log).toBe(`Patchgate <bot@patchgate.test>|Patchgate <bot@patchgate.test>|${src.head}|Alice <alice@example.test>;Bob <bob@example.test>`);
    expect(sh(ws.root, "log", "-1", "--format=%B", sha)).toBe(
      "Fix the parser\n\nCo-authored-by: Alice <alice@example.test>\nCo-authored-by: Bob <bob@example.test>",
    );
    expect(sh(ws.root, "rev-parse", "refs/heads/patchgate/issue-1")).toBe(sha);
  });

  test("commits the base plus exactly the listed paths, and the tree is the one publishedTree named", async () => {
    write(ws.root, "new.txt", "n\n");
    write(ws.root, "stray.txt", "left behind by a process\n");
    write(ws.root, "README.md", "rewritten by setup\n");
    const hash = await ws.publishedTree(WRITTEN);
    const sha = await ws.commit(commitOpts());
    expect(sh(ws.root, "rev-parse", `${sha}^{tree}`)).toBe(hash);
    expect(sh(ws.root, "ls-tree", "-r", "--name-only", sha)).toBe(".gitignore\nREADME.md\nnew.txt\nsrc/parse.txt");
    expect(sh(ws.root, "show", `${sha}:README.md`)).toBe("# widgets");
  });

  test("a listed path that is ignored is committed (it was written on purpose); a listed path that is gone is deleted", async () => {
    write(ws.root, "debug.log", "wanted\n");
    const sha = await ws.commit(commitOpts({ paths: ["debug.log", "src/parse.txt"] }));
    expect(sh(ws.root, "diff", "--name-status", src.head, sha)).toBe("A\tdebug.log");
    rmSync(join(ws.root, "src/parse.txt"));
    const second = await ws.commit(commitOpts({ paths: ["debug.log", "src/parse.txt"] }));
    expect(sh(ws.root, "diff", "--name-status", src.head, second)).toBe("A\tdebug.log\nD\tsrc/parse.txt");
  });

  test("expectTree: a commit of any other tree is refused", async () => {
    write(ws.root, "a.txt", "1\n");
    const accepted = await ws.publishedTree(WRITTEN);
    write(ws.root, "a.txt", "changed after finish\n");
    expect(await codeOf(ws.commit(commitOpts({ expectTree: accepted })))).toBe("tree_mismatch");
    expect(sh(ws.root, "branch", "--list", "patchgate/issue-1")).toBe("");
  });

  test("leaves the clone on the branch with a clean status", async () => {
    write(ws.root, "new.txt", "n\n");
    await ws.commit(commitOpts());
    expect(sh(ws.root, "symbolic-ref", "HEAD")).toBe("refs/heads/patchgate/issue-1");
    expect(sh(ws.root, "status", "--porcelain")).toBe("");
    expect(await ws.diff(WRITTEN)).toMatchObject({ filesChanged: 1 }); // still measured against the base
  });

  test("a second commit on the branch has the first as parent", async () => {
    write(ws.root, "a.txt", "1\n");
    const first = await ws.commit(commitOpts());
    write(ws.root, "a.txt", "2\n");
    const second = await ws.commit(commitOpts({ message: "second" }));
    expect(sh(ws.root, "rev-parse", `${second}^`)).toBe(first);
  });

  test("nothing to commit is refused unless allowEmpty", async () => {
    expect(await codeOf(ws.commit(commitOpts()))).toBe("nothing_to_commit");
    const sha = await ws.commit(commitOpts({ allowEmpty: true, message: "Plan" }));
    expect(sh(ws.root, "rev-parse", `${sha}^{tree}`)).toBe(sh(ws.root, "rev-parse", `${src.head}^{tree}`));
  });

  test.each([
    ["a newline in a co-author (trailer forgery)", { coAuthors: [{ name: "A\nSigned-off-by: X", email: "a@x" }] }],
    ["angle brackets in the author", { author: { name: "A <evil@x>", email: "a@x" } }],
    ["a branch with ..", { branch: "a..b" }],
    ["a branch that looks like an option", { branch: "-f" }],
  ])("refuses %s", async (_what, extra) => {
    write(ws.root, "a.txt", "1\n");
    expect(await codeOf(ws.commit(commitOpts(extra)))).toBe("invalid_argument");
  });
});

describe("push", () => {
  test("pushes the branch to a bare remote", async () => {
    const bare = makeBare();
    write(ws.root, "a.txt", "1\n");
    const sha = await ws.commit(commitOpts());
    expect(await ws.push({ remote: bare, branch: "patchgate/issue-1" })).toEqual({ ok: true, commit: sha });
    expect(sh(bare, "rev-parse", "refs/heads/patchgate/issue-1")).toBe(sha);
  });

  test("a rejected push is a result; only a lease on the head it saw replaces a branch, never force", async () => {
    const bare = makeBare();
    const other = await cloneWorkspace({ source: src.dir, dir: join(tempDir(), "other") });
    write(other.root, "b.txt", "theirs\n");
    await other.commit(commitOpts());
    expect((await other.push({ remote: bare, branch: "patchgate/issue-1" })).ok).toBe(true);
    write(ws.root, "a.txt", "ours\n");
    const ours = await ws.commit(commitOpts());
    const rejected = await ws.push({ remote: bare, branch: "patchgate/issue-1" });
    expect(rejected).toMatchObject({ ok: false, exitCode: 1 });
    expect(rejected.ok === false && rejected.stdout).toContain("[rejected]");
    const theirs = sh(bare, "rev-parse", "refs/heads/patchgate/issue-1");
    const remote = ws.branchRemote(pathToFileURL(bare).href);
    expect(await remote.update("patchgate/issue-1", ours, null)).toBe("stale"); // "must not exist"
    expect(await remote.update("patchgate/issue-1", ours, ws.baseCommit)).toBe("stale"); // not where it is
    expect(sh(bare, "rev-parse", "refs/heads/patchgate/issue-1")).toBe(theirs);
    expect(await remote.head("patchgate/issue-1")).toBe(theirs);
    expect(await remote.dropped(theirs, ours)).toEqual([theirs]);
    expect(await remote.update("patchgate/issue-1", ours, theirs)).toBe("updated");
    expect(sh(bare, "rev-parse", "refs/heads/patchgate/issue-1")).toBe(ours);
  });

  test("auth goes to a URL only, and never into .git/config", async () => {
    const bare = makeBare();
    write(ws.root, "a.txt", "1\n");
    await ws.commit(commitOpts());
    const auth = { header: "Authorization: Basic c2VjcmV0LXRva2Vu" };
    expect(await codeOf(ws.push({ remote: "origin", branch: "patchgate/issue-1", auth }))).toBe("invalid_argument");
    expect((await ws.push({ remote: pathToFileURL(bare).href, branch: "patchgate/issue-1", auth })).ok).toBe(true);
    expect(readFileSync(join(ws.root, ".git/config"), "utf8")).not.toContain("c2VjcmV0LXRva2Vu");
  });

  test("pushing a branch that does not exist fails loudly", async () => {
    expect(await codeOf(ws.push({ remote: makeBare(), branch: "nope" }))).toBe("git_failed");
  });
});
