import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOLDING_TESTS, spawnCli } from "../helpers/cli-process.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { liveEndpoint, liveTest } from "./live-env.js";

const TASK = "Fix add in src/add.js: add(2, 3) should be 5. Run the tests before you finish.";

/**
 * Two whole CLI sessions against the real endpoint, on a real repository: one straight through, and
 * one killed with SIGKILL while its tests run, then resumed — the replay a real provider has to
 * accept after an interruption. Each must end with one commit that fixes add and touches nothing else.
 */
describe("live: patchgate run against the real endpoint", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  function setup(files: Record<string, string>) {
    const repo = makeRepo(files);
    const data = tempDir("pg-live-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    const base = execFileSync("git", ["-C", repo.dir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    return { repo, data, base, env: { ...liveEndpoint(), PATCHGATE_DATA_DIR: data } };
  }

  function expectOneFixCommit(data: string, out: string, base: string): void {
    const sessionId = /session (\S+)/.exec(out)![1];
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const git = (...args: string[]) => execFileSync("git", ["-C", join(data, "workspaces", sessionId), ...args], { encoding: "utf8" }).trim();
    expect(git("rev-list", "--count", `${base}..${branch}`)).toBe("1");
    expect(git("diff", "--name-only", base, branch)).toBe("src/add.js");
    console.log(
      `live session ${sessionId}:\n${out
        .split("\n")
        .filter((l) => /tokens|cost|done:/i.test(l))
        .join("\n")}`,
    );
  }

  liveTest(
    "run: plan, edit, tests, finish → one commit",
    async () => {
      const { repo, data, base, env } = setup(BUGGY_ADD_REPO);
      const run = await spawnCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", TASK], env);
      expect([await run.code, run.stdout()]).toEqual([0, expect.stringContaining("done: branch")]);
      expectOneFixCommit(data, run.stdout(), base);
    },
    900_000,
  );

  liveTest(
    "run killed with SIGKILL while its tests run, then resume → one commit",
    async () => {
      const { repo, data, base, env } = setup({ ...BUGGY_ADD_REPO, "test.sh": HOLDING_TESTS });
      const run = await spawnCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--verbose", TASK], env);
      // The hold is in place before the model can reach run_tests: the clone is ready before the first request.
      await run.printed("workspace_prepared");
      const clone = join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
      writeFileSync(join(clone, ".git", "pg-hold"), "");
      await run.printed("HOLDING");
      run.child.kill("SIGKILL");
      expect(await run.exited).toBe("SIGKILL");
      unlinkSync(join(clone, ".git", "pg-hold"));

      const sessionId = /session (\S+)/.exec(run.stdout())![1];
      const resumed = await spawnCli(["resume", sessionId, "--approve-plan", "--approve-writes"], env);
      expect([await resumed.code, resumed.stdout()]).toEqual([0, expect.stringContaining("done: branch")]);
      expectOneFixCommit(data, run.stdout(), base);
    },
    900_000,
  );
});
