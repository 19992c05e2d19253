import { rmSync } from "node:fs";
import { Octokit } from "@octokit/rest";
import { startFakeGitHub, type FakeGitHub } from "./github/github-server.js";
import { tempDir } from "../helpers/git-fixture.js";

/**
 * The fake GitHub is only worth its tests if real clients accept it. This drives it with
 * @octokit/rest's typed methods — the same request shapes, headers and status handling as against
 * api.github.com — for every endpoint Patchgate uses.
 */
describe("the fake GitHub speaks GitHub's REST API to @octokit/rest", () => {
  let gh: FakeGitHub;
  let rest: Octokit;
  const repo = { owner: "octo-org", repo: "calculator" };
  const sha = "a".repeat(40);
  const gitRoot = tempDir("pg-contract-");
  // Octokit logs every error response; here the errors are the assertions.
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

  beforeAll(async () => {
    gh = await startFakeGitHub({ ...repo, gitRoot });
    gh.world.tokens.push("ghs_contracttoken0000000000000000000000");
    gh.world.permissions.set("alice", "triage");
    gh.world.files.set(".github/patchgate.yml", "test: npm test\n");
    rest = new Octokit({ baseUrl: gh.apiUrl, auth: "ghs_contracttoken0000000000000000000000", log });
  });
  afterAll(async () => {
    await gh.close();
    rmSync(gitRoot, { recursive: true, force: true });
  });

  test("a bad token is a 401 RequestError, as on GitHub", async () => {
    const anon = new Octokit({ baseUrl: gh.apiUrl, auth: "ghs_wrong", log });
    await expect(anon.rest.repos.get(repo)).rejects.toMatchObject({ status: 401 });
  });

  test("permission API: legacy `permission` and precise `role_name`", async () => {
    const { data } = await rest.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: "alice" });
    expect([data.permission, (data as { role_name?: string }).role_name]).toEqual(["read", "triage"]);
  });

  test("contents API returns the file base64-encoded", async () => {
    const { data } = await rest.rest.repos.getContent({ ...repo, path: ".github/patchgate.yml" });
    expect(Buffer.from((data as { content: string }).content, "base64").toString()).toBe("test: npm test\n");
    await expect(rest.rest.repos.getContent({ ...repo, path: "missing.yml" })).rejects.toMatchObject({ status: 404 });
  });

  test("issue comments: create, list, update", async () => {
    const created = await rest.rest.issues.createComment({ ...repo, issue_number: 1, body: "hello" });
    expect(created.status).toBe(201);
    await rest.rest.issues.updateComment({ ...repo, comment_id: created.data.id, body: "edited" });
    const { data } = await rest.rest.issues.listComments({ ...repo, issue_number: 1 });
    expect(data.map((c) => c.body)).toEqual(["edited"]);
  });

  test("check runs: head_sha must be a full sha; create then complete", async () => {
    await expect(rest.rest.checks.create({ ...repo, name: "Patchgate", head_sha: "abc" })).rejects.toMatchObject({ status: 422 });
    const { data } = await rest.rest.checks.create({ ...repo, name: "Patchgate", head_sha: sha, status: "in_progress" });
    const done = await rest.rest.checks.update({ ...repo, check_run_id: data.id, status: "completed", conclusion: "success" });
    expect([done.data.head_sha, done.data.status, done.data.conclusion]).toEqual([sha, "completed", "success"]);
  });

  test("pull requests: draft create, find by head, duplicate refused, ready through GraphQL", async () => {
    const { data: pr } = await rest.rest.pulls.create({ ...repo, head: "patchgate/issue-1", base: "main", title: "Fix", draft: true });
    await expect(rest.rest.pulls.create({ ...repo, head: "patchgate/issue-1", base: "main", title: "Again" })).rejects.toMatchObject({ status: 422 });
    const { data: found } = await rest.rest.pulls.list({ ...repo, head: "octo-org:patchgate/issue-1" });
    expect(found.map((p) => p.number)).toEqual([pr.number]);
    const answer = await rest.graphql<{ markPullRequestReadyForReview: { pullRequest: { isDraft: boolean } } }>(
      "mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } } }",
      { id: pr.node_id, baseUrl: gh.apiUrl.replace(/\/v3$/, "") },
    );
    expect(answer.markPullRequestReadyForReview.pullRequest.isDraft).toBe(false);
  });
});
