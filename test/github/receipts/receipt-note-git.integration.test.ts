import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBranch } from "../../fakes/git/bare-repo.js";
import type { Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { cli } from "../../helpers/run-cli.js";
import { receiptSettings } from "../../../src/github/receipt-settings.js";

/**
 * A GitHub whose Git Data API refuses the notes ref (404 to reading, creating and moving it): the
 * receipt notes of the plan and result commits reach the remote by a git push instead, the second on
 * top of the first, and `patchgate verify` on a fresh clone of the fake remote passes.
 */
const BRANCH = "patchgate/issue-1";

describe("receipt notes when the Git Data API refuses the notes ref", () => {
  let h: Harness;
  let root: string;
  const lines: string[] = [];
  beforeAll(async () => {
    root = tempDir("pg-receipt-note-git-");
    const receipts = { ...receiptSettings(join(root, "data"), {}), dir: join(root, "receipt-clones") };
    h = await storyHarness({ receipts, log: (line) => lines.push(line) });
    h.github.world.notesRefApiRefused = true;
  });
  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("both notes are pushed with git and verify from a fresh clone", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const result = readBranch(h.bare, BRANCH)!;
    const plan = result.parents[0];

    // The API was asked and refused (the ref's creation, once per commit); the notes ref moved by git only.
    const notesCalls = h.github.world.calls.filter((c) => c.method !== "GIT" && decodeURIComponent(c.path).includes("/notes/"));
    expect(notesCalls.length).toBeGreaterThan(0);
    expect(notesCalls.every((c) => c.status === 404)).toBe(true);
    const created = h.github.world.calls.filter(
      (c) => c.method === "POST" && c.path.endsWith("/git/refs") && String((c.body as { ref?: string }).ref).startsWith("refs/notes/"),
    );
    expect(created.map((c) => c.status)).toEqual([404, 404]);
    expect(h.github.world.calls.filter((c) => c.method === "GIT" && c.path.startsWith("receive-pack"))).not.toHaveLength(0);
    expect(lines.filter((l) => l.includes("pushed as a note with git (the Git Data API answered 404)"))).toHaveLength(2);

    // The remote's notes ref holds both notes, the result's note on top of the plan's.
    const bareGit = (...args: string[]) => execFileSync("git", ["--git-dir", h.bare, ...args], { encoding: "utf8" }).trim();
    for (const sha of [plan, result.sha])
      expect(JSON.parse(bareGit("notes", "--ref=refs/notes/patchgate", "show", sha))).toHaveProperty("payloadType", "application/vnd.in-toto+json");
    expect(bareGit("rev-list", "--count", "refs/notes/patchgate")).toBe("2");

    const clone = join(root, "clone");
    execFileSync("git", ["clone", "--quiet", h.bare, clone]);
    execFileSync("git", ["fetch", "--quiet", "origin", "refs/notes/patchgate:refs/notes/patchgate", `+refs/heads/${BRANCH}:refs/heads/${BRANCH}`], {
      cwd: clone,
    });
    const keyFile = join(root, "keys.json");
    const keys = await cli(["keys", "--json", "--data-dir", join(root, "data")], {});
    expect(keys.code).toBe(0);
    writeFileSync(keyFile, keys.stdout);
    const keyId = (JSON.parse(keys.stdout) as { current: string }).current;
    const verified = await cli(["verify", `${plan}^..${result.sha}`, "--key", keyFile, "--repo", clone], {});
    expect(verified).toEqual({
      code: 0,
      stdout: `${plan.slice(0, 12)}: ok, signed by ${keyId}\n${result.sha.slice(0, 12)}: ok, signed by ${keyId}\n`,
      stderr: "",
    });
    expect(h.github.world.invalidRequests).toEqual([]);
    expect(h.app.errors).toEqual([]);
  }, 300_000);
});
