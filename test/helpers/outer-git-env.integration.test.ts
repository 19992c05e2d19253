import { execFileSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

// First, and before this file loads the module itself: what jest's setupFiles left.
test("a test file runs without the GIT_ variables of the process that started jest", () => {
  expect(Object.keys(process.env).filter((k) => k.startsWith("GIT_"))).toEqual([]);
});

test("every GIT_ variable is dropped, nothing else", async () => {
  const { dropOuterGitEnv } = await import("./outer-git-env.js");
  const env = { GIT_DIR: "/repo/.git", GIT_WORK_TREE: "/repo", GIT_INDEX_FILE: "/repo/.git/index", PATH: "/usr/bin", HOME: "/root", MY_GIT_THING: "x" };
  expect(dropOuterGitEnv(env).sort()).toEqual(["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"]);
  expect(env).toEqual({ PATH: "/usr/bin", HOME: "/root", MY_GIT_THING: "x" });
});

test("jest itself started as `git bisect run` would start it gives its test files a clean environment", () => {
  const out = execFileSync(
    process.execPath,
    ["--experimental-vm-modules", "node_modules/jest/bin/jest.js", "test/helpers/outer-git-env.integration.test.ts", "-t", "without the GIT_"],
    {
      cwd: ROOT,
      env: { ...process.env, GIT_DIR: "/nowhere/.git", GIT_WORK_TREE: "/nowhere" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  expect(out).toBe("");
}, 120_000);
