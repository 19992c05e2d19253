import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RepoConfigSchema } from "../../src/config/repo-config.js";
import { buildFixtureRepo } from "../../src/eval/fixture-repo.js";
import { builtinCase } from "./run-helpers.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "eval-fixture-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("fixture repository", () => {
  test("is the fixture plus the inline files, committed once on main, with its config read back", async () => {
    const c = builtinCase("single-file-edit");
    const repo = await buildFixtureRepo(c, path.join(dir, "repo"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.path, encoding: "utf8" }).trim();
    expect(git("rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git("rev-list", "--count", "HEAD")).toBe("1");
    expect(git("status", "--porcelain")).toBe("");
    expect(repo.baseCommit).toBe(git("rev-parse", "HEAD"));
    expect(readFileSync(path.join(repo.path, "src/stats.js"), "utf8")).toContain("(xs.length - 1)");
    expect(repo.files.get("src/stats.js")).toContain("(xs.length - 1)");
    expect(repo.files.has("test/stats.test.js")).toBe(true);
    expect(repo.repoConfig.test).toBe("node --test --test-isolation=none");
  });

  test("the base commit is the same on every build (fixed identity and dates)", async () => {
    const c = builtinCase("read-file");
    const a = await buildFixtureRepo(c, path.join(dir, "a"));
    const b = await buildFixtureRepo(c, path.join(dir, "b"));
    expect(a.baseCommit).toBe(b.baseCommit);
  });

  test("a case's config is written as .github/patchgate.yml and read back through the schema", async () => {
    const c = { ...builtinCase("read-file"), fixtureDir: null, files: { "a.txt": "x" }, config: undefined };
    expect((await buildFixtureRepo(c, path.join(dir, "none"))).repoConfig.test).toBeUndefined();
    const withConfig = { ...c, config: RepoConfigSchema.parse({ test: "true" }) };
    const repo = await buildFixtureRepo(withConfig, path.join(dir, "cfg"));
    expect(repo.repoConfig).toMatchObject({ test: "true", timeouts: { test_seconds: 300 } });
    expect(repo.files.get(".github/patchgate.yml")).toContain('test: "true"');
  });

  test("an inline file outside the repository is refused", async () => {
    const c = { ...builtinCase("read-file"), fixtureDir: null, files: { "../escape.txt": "x" } };
    await expect(buildFixtureRepo(c, path.join(dir, "bad"))).rejects.toThrow(/outside the repository/);
  });
});
