import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { pushHumanCommit } from "../../fakes/human-push.js";
import type { Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { cli } from "../../helpers/run-cli.js";
import { receiptSettings } from "../../../src/github/receipt-settings.js";

/**
 * Receipts on the fake GitHub, end to end: the demo story's session publishes its plan and result
 * commits, each with a note pushed through the Git Data API; `patchgate verify` on a fresh clone of
 * the fake remote, with the key from the app's `/patchgate/keys`, passes; the `patchgate/receipt`
 * status follows the PR's pushes (as GitHub's `pull_request.synchronize` tells them): success, then
 * "1 human commit after the last receipt", then failure for a commit by the app's identity without one.
 */
const BRANCH = "patchgate/issue-1";

describe("receipts on GitHub", () => {
  let h: Harness;
  let root: string;
  beforeAll(async () => {
    root = tempDir("pg-receipts-e2e-");
    const receipts = { ...receiptSettings(join(root, "data"), {}), dir: join(root, "receipt-clones") };
    h = await storyHarness({ receipts });
    h.github.world.emails.set("mona@example.com", "maintainer");
  });
  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  const keysUrl = () => h.app.webhookUrl.replace("/api/github/webhooks", "/patchgate/keys");
  const bareGit = (...args: string[]) => execFileSync("git", ["--git-dir", h.bare, ...args], { encoding: "utf8" }).trim();

  /** GitHub's `pull_request.synchronize` for the PR's head now, pushed by `by`; resolves once judged. */
  async function synchronize(by: string): Promise<{ state: string; description: string | null }> {
    const pr = h.github.world.pulls[0];
    const sent = await h.send("pull_request", h.payloads.prSynchronize({ pr: pr.number, before: "0".repeat(40), by }));
    expect(sent.status).toBe(200);
    await h.settle();
    const head = readBranch(h.bare, BRANCH)!.sha;
    const mine = h.github.world.statuses.filter((s) => s.sha === head && s.context === "patchgate/receipt");
    expect(mine.length).toBeGreaterThan(0);
    return { state: mine.at(-1)!.state, description: mine.at(-1)!.description };
  }

  test("notes on the plan and result commits, verified from a fresh clone; the status through three pushes", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const result = readBranch(h.bare, BRANCH)!;
    const plan = result.parents[0];
    // Both commits carry a note on the remote: a DSSE envelope, no file content.
    for (const sha of [plan, result.sha])
      expect(JSON.parse(bareGit("notes", "--ref=refs/notes/patchgate", "show", sha))).toHaveProperty("payloadType", "application/vnd.in-toto+json");

    // Each note is on GitHub before the branch moves to its commit: the push event GitHub sends then
    // (pull_request.synchronize) is judged with the note there.
    const refMoves = h.github.world.calls
      .filter((c) => c.path.includes("/git/refs") && c.method !== "GET" && c.status < 300)
      .map((c) => (decodeURIComponent(c.path).includes("/notes/") || String((c.body as { ref?: string }).ref).startsWith("refs/notes/") ? "notes" : "branch"));
    expect(refMoves).toEqual(["notes", "branch", "notes", "branch"]);

    // The keys route serves the public key the receipts verify with.
    const keys = (await (await fetch(keysUrl())).json()) as { current: string; keys: { keyId: string; publicKeyPem: string }[] };
    expect(keys.current).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(keys)).not.toContain("PRIVATE");

    // A fresh clone of the fake remote and its notes; verify with the key from the route.
    const clone = join(root, "clone");
    execFileSync("git", ["clone", "--quiet", h.bare, clone]);
    execFileSync("git", ["fetch", "--quiet", "origin", "refs/notes/patchgate:refs/notes/patchgate", `+refs/heads/${BRANCH}:refs/heads/${BRANCH}`], {
      cwd: clone,
    });
    const verified = await cli(["verify", `${plan}^..${result.sha}`, "--key", keysUrl(), "--repo", clone], {});
    expect(verified).toEqual({
      code: 0,
      stdout: `${plan.slice(0, 12)}: ok, signed by ${keys.current}\n${result.sha.slice(0, 12)}: ok, signed by ${keys.current}\n`,
      stderr: "",
    });

    // The check run's folded Receipt section names the key and the verification line.
    const summary = theCheckRun(h).output.summary ?? "";
    expect(summary).toContain("<details><summary>Receipt</summary>");
    expect(summary).toContain(keys.current);
    expect(summary).toContain(`npx patchgate verify ${result.sha}`);

    expect(await synchronize("patchgate[bot]")).toEqual({ state: "success", description: "2 receipted commits, the head among them" });

    pushHumanCommit(h.bare, BRANCH, { "NOTES.md": "a maintainer's note\n" });
    expect(await synchronize("maintainer")).toEqual({ state: "success", description: "1 human commit after the last receipt" });

    // A commit by the app's identity, made through the Git Data API with the app's token, with no receipt.
    const rest = new Octokit({ baseUrl: h.github.apiUrl, auth: h.github.world.currentToken!, log: { debug() {}, info() {}, warn() {}, error() {} } });
    const where = { owner: "octo-org", repo: "calculator" };
    const head = readBranch(h.bare, BRANCH)!.sha;
    const { data: parent } = await rest.git.getCommit({ ...where, commit_sha: head });
    const { data: blob } = await rest.git.createBlob({ ...where, content: "unreceipted\n", encoding: "utf-8" });
    const { data: tree } = await rest.git.createTree({
      ...where,
      base_tree: parent.tree.sha,
      tree: [{ path: "extra.txt", mode: "100644", type: "blob", sha: blob.sha }],
    });
    const { data: sneaky } = await rest.git.createCommit({ ...where, message: "no receipt", tree: tree.sha, parents: [head] });
    await rest.git.updateRef({ ...where, ref: `heads/${BRANCH}`, sha: sneaky.sha, force: false });
    expect(await synchronize("patchgate[bot]")).toEqual({ state: "failure", description: `${sneaky.sha.slice(0, 7)} by patchgate[bot] has no receipt` });
    expect(h.github.world.invalidRequests).toEqual([]);
    expect(h.app.errors).toEqual([]);
    // A whole session and four judged pushes, on a machine shared with other test runs.
  }, 300_000);
});
