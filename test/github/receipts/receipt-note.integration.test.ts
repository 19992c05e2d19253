import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { createBareRepo, readBranch } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { openApiValidator } from "../../fakes/openapi-validator.js";
import type { Octokit as AppOctokit } from "../../../src/github/octokit.js";
import { NOTES_REF, pushReceiptNote } from "../../../src/github/outbound/receipt-note.js";
import { tempDir } from "../../helpers/git-fixture.js";

/**
 * Receipt notes written through the Git Data API on the fake GitHub over a real bare repository, read
 * back with plain git: the first note creates the ref, the next ones fast-forward it, the same note
 * twice changes nothing, and a notes update by someone else in the middle is kept (read again, retried).
 */
const repo = { owner: "octo-org", repo: "calculator" };
const TOKEN = "ghs_receiptnotetoken00000000000000000000";

describe("pushReceiptNote", () => {
  let gh: FakeGitHub;
  let root: string;
  let bare: string;
  let octokit: AppOctokit;
  const note = (sha: string) => execFileSync("git", ["--git-dir", bare, "notes", `--ref=${NOTES_REF}`, "show", sha], { encoding: "utf8" });
  const notesHead = () => execFileSync("git", ["--git-dir", bare, "rev-parse", NOTES_REF], { encoding: "utf8" }).trim();

  beforeAll(async () => {
    root = tempDir("pg-receipt-note-");
    bare = createBareRepo(join(root, "remote"), repo.owner, repo.repo, { "README.md": "# x\n" });
    gh = await startFakeGitHub({ ...repo, gitRoot: join(root, "remote"), validate: openApiValidator });
    gh.world.tokens.push(TOKEN);
    octokit = new Octokit({ baseUrl: gh.apiUrl, auth: TOKEN, log: { debug() {}, info() {}, warn() {}, error() {} } }) as unknown as AppOctokit;
  });
  afterAll(async () => {
    await gh.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("created, added to, unchanged when there already, and kept across a concurrent update", async () => {
    const main = readBranch(bare, "main")!.sha;
    const first = await pushReceiptNote(octokit, repo, main, '{"payload":"one"}');
    expect(notesHead()).toBe(first);
    expect(note(main)).toBe('{"payload":"one"}');
    expect(await pushReceiptNote(octokit, repo, main, '{"payload":"one"}')).toBe("unchanged");

    // Two more commits to note; the first writer's ref move is held while the second writes.
    const other = execFileSync("git", ["--git-dir", bare, "commit-tree", `${main}^{tree}`, "-p", main, "-m", "two"], { encoding: "utf8" }).trim();
    const third = execFileSync("git", ["--git-dir", bare, "commit-tree", `${main}^{tree}`, "-p", main, "-m", "three"], { encoding: "utf8" }).trim();
    let release!: () => void;
    const reached = new Promise<void>((resolve) =>
      gh.world.holdNext.push({
        method: "PATCH",
        pathPrefix: "/repos/octo-org/calculator/git/refs/notes",
        reached: resolve,
        until: new Promise((r) => (release = r)),
      }),
    );
    const held = pushReceiptNote(octokit, repo, other, '{"payload":"two"}');
    await reached;
    await pushReceiptNote(octokit, repo, third, '{"payload":"three"}');
    release();
    await held;
    expect([note(main), note(other), note(third)]).toEqual(['{"payload":"one"}', '{"payload":"two"}', '{"payload":"three"}']);
    const refused = gh.world.calls.filter((c) => c.method === "PATCH" && c.path.includes("/git/refs/notes") && c.status === 422);
    expect(refused).toHaveLength(1);
    expect(gh.world.invalidRequests).toEqual([]);
  });
});
