import { execFileSync } from "node:child_process";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storyScript, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { pushHumanCommit } from "../../fakes/human-push.js";
import { R, storyHarness, theCheckRun } from "../../harness/story-helpers.js";

/**
 * Verified commits: the session's commits are made through the Git Data API (blobs, tree, commit,
 * ref), every request passing the fake's OpenAPI checks; GitHub signs them, the app is the author,
 * the requester a co-author; the tree is the one the test gate accepted; and a branch that moves
 * between Patchgate's look and its ref update is not overwritten (the lease), but built upon.
 */
const BRANCH = "patchgate/issue-1";
const treeOf = (h: Harness, sha: string) => execFileSync("git", ["--git-dir", h.bare, "rev-parse", `${sha}^{tree}`], { encoding: "utf8" }).trim();
const session = async (h: Harness) => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);

describe("commits through the Git Data API", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
  }, 240_000); // whole sessions, slow on a loaded machine
  afterAll(() => h.close());

  test("blob, tree, commit and ref calls pass GitHub's OpenAPI description; no git push", () => {
    const w = h.github.world;
    const git = w.calls
      .filter((c) => c.path.startsWith(`${R}/git/`) || c.method === "GIT")
      .map((c) => `${c.method} ${decodeURIComponent(c.path.replace(R, ""))} ${c.status}`);
    expect(git.filter((l) => !l.startsWith("GIT upload-pack"))).toEqual([
      "POST /git/commits 201", // the plan's empty commit: the parent's tree, no blob
      "POST /git/refs 201", // the branch is new
      "POST /git/blobs 201", // src/add.js
      "POST /git/trees 201",
      "POST /git/commits 201",
      `PATCH /git/refs/heads/${BRANCH} 200`,
    ]);
    expect(w.calls.some((c) => c.path.includes("receive-pack"))).toBe(false);
    expect(w.invalidRequests).toEqual([]);
    const blob = w.calls.find((c) => c.path === `${R}/git/blobs`)!.body as { content: string; encoding: string };
    expect(Buffer.from(blob.content, "base64").toString("utf8")).toBe("export function add(a, b) {\n  return a + b;\n}\n");
  });

  test("the commit is GitHub's, signed, the app its author, the requester its co-author; its tree is the tested tree", async () => {
    const head = readBranch(h.bare, BRANCH)!;
    const made = h.github.world.apiCommits.find((c) => c.sha === head.sha)!;
    expect(made).toMatchObject({ verified: true, author: { name: "patchgate[bot]", email: "4243+patchgate[bot]@users.noreply.github.com" } });
    expect(head.author).toBe("patchgate[bot] <4243+patchgate[bot]@users.noreply.github.com>");
    const maintainer = h.github.world.user("maintainer");
    expect(head.message).toMatch(new RegExp(`Resolves #1\\.\\n\\nCo-authored-by: maintainer <${maintainer.id}\\+maintainer@users\\.noreply\\.github\\.com>$`));
    const ledger = await session(h);
    expect(treeOf(h, head.sha)).toBe(ledger.state.finishedTree);
    expect(ledger.state.published).toMatchObject({ commit: head.sha, tree: ledger.state.finishedTree });
    expect(ledger.history.filter((e) => e.type === "branch_pushed").map((e) => (e as { via?: string }).via)).toEqual(["api", "api"]);
    expect(theCheckRun(h).output.summary).toContain(
      `Commit \`${head.sha.slice(0, 7)}\` made through GitHub's Git Data API: signed by GitHub (verified), the app as author.`,
    );
  });
});

describe("the branch moves between Patchgate's look and its ref update", () => {
  let h: Harness;
  let human = "";
  beforeAll(async () => {
    const again = [
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add() adds, on top of the maintainer's commit." } }] },
    ];
    h = await storyHarness({ script: [...storyScript(), ...again] });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    // The result's ref update waits until a maintainer has pushed to the branch.
    let release = () => {};
    const until = new Promise<void>((r) => (release = r));
    h.github.world.holdNext.push({
      method: "PATCH",
      pathPrefix: `${R}/git/refs/`,
      reached: () => {
        human = pushHumanCommit(h.bare, BRANCH, { "docs/NOTES.md": "Notes from the maintainer.\n" });
        release();
      },
      until,
    });
    await storySteps.approveWrites(h);
  }, 240_000); // whole sessions, slow on a loaded machine
  afterAll(() => h.close());

  test("the fast-forward-only update is refused (422), nothing is overwritten, and the change is rebuilt on the new commit, tested and pushed signed", async () => {
    const patches = h.github.world.calls
      .filter((c) => c.method === "PATCH" && c.path.startsWith(`${R}/git/refs/`))
      .map((c) => [c.status, (c.body as { force: boolean }).force]);
    expect(patches).toEqual([
      [422, false],
      [200, false],
    ]);
    const head = readBranch(h.bare, BRANCH)!;
    expect(head.parents).toEqual([human]);
    expect(head.files["docs/NOTES.md"]).toBe("Notes from the maintainer.\n");
    const ledger = await session(h);
    expect(ledger.state.phase).toBe("done");
    expect(ledger.history.filter((e) => e.type === "branch_rebased")).toMatchObject([{ onto: human, foreign: [human] }]);
    expect(treeOf(h, head.sha)).toBe(ledger.state.finishedTree);
    expect(h.github.world.apiCommits.find((c) => c.sha === head.sha)?.verified).toBe(true);
    expect(h.github.world.calls.some((c) => c.path.includes("receive-pack"))).toBe(false);
  });
});

describe("where the Git Data API cannot be used", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    // A GitHub without the Git Data API for this repository, for the plan's commit only.
    h.github.world.failNext.push({ method: "POST", pathPrefix: `${R}/git/commits`, status: 404 });
    await storySteps.ask(h);
  }, 240_000); // whole sessions, slow on a loaded machine
  afterAll(() => h.close());

  test("the commit is pushed with git, under the same lease, and the ledger and the check run say it is unsigned and why", async () => {
    const ledger = await session(h);
    const pushed = ledger.history.filter((e) => e.type === "branch_pushed");
    expect(pushed).toMatchObject([{ via: "git", unsigned: "GitHub's Git Data API answered 404" }]);
    expect(h.github.world.calls.some((c) => c.path.includes("receive-pack"))).toBe(true);
    expect(readBranch(h.bare, BRANCH)!.sha).toBe((pushed[0] as { commit: string }).commit);
    expect(theCheckRun(h).output.summary).toContain(
      `**⚠ Commit** \`${(pushed[0] as { commit: string }).commit.slice(0, 7)}\` **pushed with git, unsigned**: GitHub's Git Data API answered 404.`,
    );
  });

  test("the next commit goes through the API again, on top of it", async () => {
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const ledger = await session(h);
    expect(ledger.history.filter((e) => e.type === "branch_pushed").map((e) => (e as { via?: string }).via)).toEqual(["git", "api"]);
    expect(h.github.world.apiCommits.find((c) => c.sha === readBranch(h.bare, BRANCH)!.sha)?.verified).toBe(true);
  }, 240_000);
});
