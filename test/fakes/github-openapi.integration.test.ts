import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { Octokit } from "@octokit/rest";
import { createBareRepo, readBranch } from "./git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "./github/github-server.js";
import { tempDir } from "../helpers/git-fixture.js";
import { openApiValidator } from "./openapi-validator.js";

/**
 * The fake GitHub refuses what GitHub's OpenAPI description refuses (422), and checks annotations
 * against the run's commit as GitHub does: a test against it cannot pass with a request that the
 * real API would reject.
 */
describe("the fake GitHub checks requests against GitHub's OpenAPI description", () => {
  let gh: FakeGitHub;
  let rest: Octokit;
  let sha: string;
  const repo = { owner: "octo-org", repo: "calculator" };
  const gitRoot = tempDir("pg-openapi-");
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  // Deliberately wrong bodies: sent through an untyped route so the compiler lets them through.
  const send = (route: string, params: Record<string, unknown>) => rest.request(route, params);
  const note = (path: string, start_line: number, end_line = start_line) => ({ path, start_line, end_line, annotation_level: "notice" as const, message: "m" });

  beforeAll(async () => {
    const bare = createBareRepo(gitRoot, repo.owner, repo.repo, { "src/add.js": "a\nb\nc\n", "README.md": "# x\n" });
    sha = readBranch(bare, "main")!.sha;
    gh = await startFakeGitHub({ ...repo, gitRoot, validate: openApiValidator });
    gh.world.tokens.push("ghs_openapitoken00000000000000000000000");
    rest = new Octokit({ baseUrl: gh.apiUrl, auth: "ghs_openapitoken00000000000000000000000", log });
  });
  afterAll(async () => {
    await gh.close();
    rmSync(gitRoot, { recursive: true, force: true });
  });

  test("a body GitHub's schema refuses is a 422 that names the field, and is remembered", async () => {
    await expect(send("POST /repos/{owner}/{repo}/check-runs", { ...repo, name: "Patchgate", head_sha: sha, status: "bogus" })).rejects.toMatchObject({
      status: 422,
    });
    await expect(send("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...repo, issue_number: 1, body: 42 })).rejects.toMatchObject({
      status: 422,
    });
    expect(gh.world.invalidRequests.map((r) => [r.method, r.path, r.errors.some((e) => e.startsWith("/status") || e.startsWith("/body"))])).toEqual([
      ["POST", "/repos/octo-org/calculator/check-runs", true],
      ["POST", "/repos/octo-org/calculator/issues/1/comments", true],
    ]);
  });

  test("output longer than 65535 characters, 51 annotations, a completed run without conclusion: refused", async () => {
    const { data } = await rest.rest.checks.create({ ...repo, name: "Patchgate", head_sha: sha, status: "in_progress" });
    const update = (body: Record<string, unknown>) =>
      send("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", { ...repo, check_run_id: data.id, ...body });
    await expect(update({ output: { title: "t", summary: "x".repeat(65536) } })).rejects.toMatchObject({ status: 422 });
    await expect(update({ output: { title: "t", summary: "s", annotations: Array.from({ length: 51 }, () => note("src/add.js", 1)) } })).rejects.toMatchObject({
      status: 422,
    });
    await expect(update({ status: "completed" })).rejects.toMatchObject({ status: 422 });
    await update({ output: { title: "t", summary: "s", annotations: Array.from({ length: 50 }, () => note("src/add.js", 1)) } });
    expect(gh.world.checkRuns.at(-1)!.annotations).toHaveLength(50);
  });

  test("annotations must name a file of the run's commit and lines it has; each update appends", async () => {
    const { data } = await rest.rest.checks.create({ ...repo, name: "Patchgate", head_sha: sha, status: "in_progress" });
    const annotate = (annotations: ReturnType<typeof note>[]) =>
      rest.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
        ...repo,
        check_run_id: data.id,
        output: { title: "t", summary: "s", annotations },
      });
    await expect(annotate([note("src/missing.js", 1)])).rejects.toMatchObject({ status: 422 });
    await expect(annotate([note("src/add.js", 3, 4)])).rejects.toMatchObject({ status: 422 });
    await expect(annotate([note("src/add.js", 0)])).rejects.toMatchObject({ status: 422 });
    await annotate([note("src/add.js", 1, 3)]);
    await annotate([note("README.md", 1)]);
    const { data: listed } = await rest.rest.checks.listAnnotations({ ...repo, check_run_id: data.id });
    expect(listed.map((a) => [a.path, a.start_line, a.end_line])).toEqual([
      ["src/add.js", 1, 3],
      ["README.md", 1, 1],
    ]);
    const { data: run } = await rest.rest.checks.get({ ...repo, check_run_id: data.id });
    expect(run.output.annotations_count).toBe(2);
  });

  test("every operation's request body is checked: the kept part of the description holds every component a body reaches", () => {
    const spec = createRequire(import.meta.url)("@octokit/openapi/generated/api.github.com.json") as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const withBody = Object.entries(spec.paths).flatMap(([template, ops]) =>
      Object.entries(ops)
        .filter(([method, op]) => method !== "get" && method !== "delete" && op.requestBody?.content?.["application/json"])
        .map(([method]) => [method.toUpperCase(), template.replace(/\{[^}]+\}/g, "1")] as const),
    );
    expect(withBody.length).toBeGreaterThan(300);
    // A reference the kept part lacks would throw when the body's schema is compiled; an empty body breaks most schemas' `required`.
    const refused = withBody.filter(([method, path]) => openApiValidator(method, path, {}).length > 0);
    expect(refused.length).toBeGreaterThan(100);
  });
});
