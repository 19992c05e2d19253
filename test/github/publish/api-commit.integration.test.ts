import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { createBareRepo } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { createApiCommit, MAX_PARALLEL_BLOBS } from "../../../src/github/outbound/api-commit.js";
import type { Octokit as AppOctokit } from "../../../src/github/octokit.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { openApiValidator } from "../../fakes/openapi-validator.js";

/**
 * A large change made again through the Git Data API, against the fake GitHub over a real bare
 * repository: new, changed, deleted, binary, executable and symlinked files; blobs a few at a time;
 * the tree GitHub builds is the local one, byte for byte.
 */
const repo = { owner: "octo-org", repo: "calculator" };
const TOKEN = "ghs_apicommittoken000000000000000000000";

describe("createApiCommit", () => {
  let gh: FakeGitHub;
  let root: string;
  let work: string;
  let bare: string;
  beforeAll(async () => {
    root = tempDir("pg-apicommit-");
    bare = createBareRepo(join(root, "remote"), repo.owner, repo.repo, { "README.md": "# x\n", "old.txt": "to be deleted\n", "src/a.js": "a\n" });
    gh = await startFakeGitHub({ ...repo, gitRoot: join(root, "remote"), validate: openApiValidator });
    gh.world.tokens.push(TOKEN);
    work = join(root, "work");
    execFileSync("git", ["clone", "--quiet", bare, work]);
  });
  afterAll(async () => {
    await gh.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("30 files: the tree GitHub builds is the local tree; blobs went at most MAX_PARALLEL_BLOBS at a time, and in parallel", async () => {
    for (let i = 0; i < 26; i++) {
      mkdirSync(join(work, "gen"), { recursive: true });
      writeFileSync(join(work, "gen", `f${i}.txt`), `file ${i}\n`.repeat(i + 1));
    }
    writeFileSync(join(work, "src/a.js"), "a changed\n");
    writeFileSync(join(work, "logo.bin"), Buffer.from([0, 255, 254, 1, 128, 10, 13, 0xc3]));
    writeFileSync(join(work, "run.sh"), "#!/bin/sh\necho hi\n");
    chmodSync(join(work, "run.sh"), 0o755);
    symlinkSync("src/a.js", join(work, "link.js"));
    unlinkSync(join(work, "old.txt"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=L", "-c", "user.email=l@example.invalid", ...args], { cwd: work, encoding: "utf8" }).trim();
    git("add", "-A");
    git("commit", "-q", "-m", "A large change\n\nCo-authored-by: maintainer <1+maintainer@users.noreply.github.com>");
    const local = git("rev-parse", "HEAD");

    let inFlight = 0;
    let most = 0;
    const rest = new Octokit({ baseUrl: gh.apiUrl, auth: TOKEN, log: { debug() {}, info() {}, warn() {}, error() {} } });
    rest.hook.wrap("request", async (request, options) => {
      const blob = String(options.url).endsWith("/git/blobs");
      if (blob) most = Math.max(most, ++inFlight);
      try {
        return await request(options);
      } finally {
        if (blob) inFlight -= 1;
      }
    });
    const made = await createApiCommit(rest as unknown as AppOctokit, repo, work, local);
    expect(made.tree).toBe(git("rev-parse", `${local}^{tree}`));
    expect(made.verified).toBe(true);
    const bareGit = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args]);
    expect(bareGit("rev-parse", `${made.sha}^{tree}`).toString().trim()).toBe(made.tree);
    expect(bareGit("cat-file", "blob", `${made.sha}:logo.bin`)).toEqual(Buffer.from([0, 255, 254, 1, 128, 10, 13, 0xc3]));
    expect(bareGit("log", "-1", "--format=%an%n%B", made.sha).toString()).toBe(
      "patchgate[bot]\nA large change\n\nCo-authored-by: maintainer <1+maintainer@users.noreply.github.com>\n\n",
    );
    expect(gh.world.calls.filter((c) => c.path.endsWith("/git/blobs"))).toHaveLength(30); // 26 generated + a.js + logo.bin + run.sh + the link
    expect(most).toBeLessThanOrEqual(MAX_PARALLEL_BLOBS);
    expect(most).toBeGreaterThan(1);
    expect(gh.world.invalidRequests).toEqual([]);
  });
});
