import { rmSync } from "node:fs";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { createBareRepo, readBranch } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { pushHumanCommit } from "../../fakes/human-push.js";
import { openApiValidator } from "../../fakes/openapi-validator.js";
import { authFor } from "../../../src/github/outbound/git-remote.js";
import type { Octokit as AppOctokit } from "../../../src/github/octokit.js";
import type { PullPush } from "../../../src/github/inbound/pull-push.js";
import { postReceiptStatus, type ReceiptChecker } from "../../../src/github/session-work/receipt-status.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { generateKeyPairSync } from "node:crypto";
import { signEnvelope } from "../../../src/receipt/envelope.js";
import { keyIdOf, publicPemOf } from "../../../src/receipt/key-id.js";
import { pushReceiptNote } from "../../../src/github/outbound/receipt-note.js";
import { receiptChecker } from "../../../src/github/session-work/receipt-checker.js";

/**
 * The `patchgate/receipt` status against the fake GitHub over a real bare repository: the PR's
 * commits as GitHub lists them, fetched into the app's own bare clone, judged, posted on the head.
 * The receipts here are a set of shas (the checker's contract); the real checker is tested end to end.
 */
const repo = { owner: "octo-org", repo: "calculator" };
const TOKEN = "ghs_receiptstatustoken0000000000000000000";
const BRANCH = "patchgate/issue-1";

describe("postReceiptStatus", () => {
  let gh: FakeGitHub;
  let root: string;
  let bare: string;
  let rest: Octokit;
  const receipted = new Set<string>();
  const checker: ReceiptChecker = async (_dir, commits) => commits.map((c) => (receipted.has(c) ? { kind: "valid" } : { kind: "none" }));
  const push: PullPush = {
    kind: "pull_pushed",
    id: "d1",
    repo: { id: 4711, ...repo, defaultBranch: "main", installationId: 77 },
    pull: 0,
    head: "",
    headRef: BRANCH,
  };

  /** A commit the app makes through the Git Data API on the branch (GitHub makes the app its author). */
  async function appCommit(file: string, content: string): Promise<string> {
    const where = { ...repo };
    const parent = readBranch(bare, BRANCH)!.sha;
    const { data: base } = await rest.git.getCommit({ ...where, commit_sha: parent });
    const { data: blob } = await rest.git.createBlob({ ...where, content, encoding: "utf-8" });
    const { data: tree } = await rest.git.createTree({
      ...where,
      base_tree: base.tree.sha,
      tree: [{ path: file, mode: "100644", type: "blob", sha: blob.sha }],
    });
    const { data: commit } = await rest.git.createCommit({ ...where, message: `change ${file}`, tree: tree.sha, parents: [parent] });
    await rest.git.updateRef({ ...where, ref: `heads/${BRANCH}`, sha: commit.sha, force: false });
    return commit.sha;
  }

  const run = (check: ReceiptChecker = checker) =>
    postReceiptStatus(
      {
        octokit: rest as unknown as AppOctokit,
        dir: join(root, "receipts"),
        url: `http://${gh.host}/${repo.owner}/${repo.repo}.git`,
        auth: authFor(TOKEN),
        appLogin: "patchgate[bot]",
        check,
        log: () => {},
      },
      push,
    );

  const combined = async () => (await rest.repos.getCombinedStatusForRef({ ...repo, ref: readBranch(bare, BRANCH)!.sha })).data;

  beforeAll(async () => {
    root = tempDir("pg-receipt-status-");
    bare = createBareRepo(join(root, "remote"), repo.owner, repo.repo, { "README.md": "# x\n" });
    gh = await startFakeGitHub({ ...repo, gitRoot: join(root, "remote"), validate: openApiValidator });
    gh.world.tokens.push(TOKEN);
    gh.world.emails.set("mona@example.com", "mona");
    rest = new Octokit({ baseUrl: gh.apiUrl, auth: TOKEN, log: { debug() {}, info() {}, warn() {}, error() {} } });
    await rest.git.createRef({ ...repo, ref: `refs/heads/${BRANCH}`, sha: readBranch(bare, "main")!.sha });
    const { data: pr } = await rest.pulls.create({ ...repo, head: BRANCH, base: "main", title: "Patchgate: fix" });
    push.pull = pr.number;
  });
  afterAll(async () => {
    await gh.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("receipted, then a maintainer's commit, then the app's commit without a receipt", async () => {
    receipted.add(await appCommit("a.txt", "a\n"));
    expect(await run()).toEqual({ state: "success", description: "1 receipted commit, the head among them" });
    let status = await combined();
    expect(status.state).toBe("success");
    expect(status.statuses).toEqual([expect.objectContaining({ context: "patchgate/receipt", state: "success" })]);

    pushHumanCommit(bare, BRANCH, { "b.txt": "b\n" });
    expect(await run()).toEqual({ state: "success", description: "1 human commit after the last receipt" });
    expect((await combined()).statuses[0].description).toBe("1 human commit after the last receipt");

    const unreceipted = await appCommit("c.txt", "c\n");
    expect(await run()).toEqual({ state: "failure", description: `${unreceipted.slice(0, 7)} by patchgate[bot] has no receipt` });
    status = await combined();
    expect(status.state).toBe("failure");

    // Judged again (a redelivery): the same verdict on the same head, and GitHub's combined status keeps one per context.
    await run();
    expect((await combined()).statuses).toHaveLength(1);
    expect(gh.world.statuses.filter((s) => s.sha === unreceipted)).toHaveLength(2);
    expect(gh.world.invalidRequests).toEqual([]);
  });

  test("the real checker: a note signed by a key this deployment does not hold fails the status, naming why", async () => {
    const ours = generateKeyPairSync("ed25519").publicKey;
    const theirs = generateKeyPairSync("ed25519").privateKey;
    const sha = await appCommit("e.txt", "e\n");
    const envelope = signEnvelope({ _type: "https://in-toto.io/Statement/v1" }, { keyId: keyIdOf(theirs), privateKey: theirs });
    await pushReceiptNote(rest as unknown as AppOctokit, repo, sha, JSON.stringify(envelope));
    const real = receiptChecker([{ keyId: keyIdOf(ours), publicKeyPem: publicPemOf(ours) }], ["patchgate[bot]"]);
    // Every earlier commit passes here: only the new one is judged by its note.
    const earlier: ReceiptChecker = async (dir, commits) => [
      ...(await checker(dir, commits.slice(0, -1))).map(() => ({ kind: "valid" as const })),
      ...(await real(dir, commits.slice(-1))),
    ];
    const v = await run(earlier);
    expect(v?.state).toBe("failure");
    expect(v?.description).toMatch(new RegExp(`^${sha.slice(0, 7)}: signed by a key that is not trusted`));
  });

  test("a commit by an email GitHub cannot attribute is not taken for a human's", async () => {
    const before = readBranch(bare, BRANCH)!.sha;
    receipted.add(before);
    const sha = pushHumanCommit(bare, BRANCH, { "d.txt": "d\n" }, { message: "by someone GitHub does not know" });
    gh.world.emails.delete("mona@example.com");
    try {
      // Every earlier commit is receipted here: only the new one is judged on its author.
      for (const c of (await rest.pulls.listCommits({ ...repo, pull_number: push.pull })).data) if (c.sha !== sha) receipted.add(c.sha);
      expect(await run()).toEqual({ state: "failure", description: `${sha.slice(0, 7)} by an unknown author has no receipt` });
    } finally {
      gh.world.emails.set("mona@example.com", "mona");
    }
  });
});
