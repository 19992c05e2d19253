import { execFileSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { evalCommand } from "../../src/cli/eval-command.js";
import { showCommand, traceCommand } from "../../src/cli/inspect-commands.js";
import { listCommand } from "../../src/cli/list-command.js";
import { resumeCommand } from "../../src/cli/resume-command.js";
import { runCommand } from "../../src/cli/run-command.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { startFakeOpenAI } from "../fakes/chat/server.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli, type CliResult } from "../helpers/run-cli.js";

const STACK = /\n\s+at |TypeError|Error:/;
const KEY = { OPENAI_API_KEY: "sk-usage-test", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

async function sessionCount(data: string): Promise<number> {
  if (!existsSync(join(data, "patchgate.sqlite"))) return 0;
  const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
  try {
    return (await store.list()).length;
  } finally {
    await store.close();
  }
}

function expectUsageError(r: CliResult, message: string | RegExp): void {
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: "" });
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(STACK);
}

describe("patchgate CLI: usage", () => {
  const data = tempDir("pg-usage-");
  const repo = makeRepo(BUGGY_ADD_REPO);
  const env = { ...KEY, PATCHGATE_DATA_DIR: data };
  afterAll(() => {
    repo.cleanup();
    rmSync(data, { recursive: true, force: true });
  });

  test("an unknown flag is a usage error naming it, with the command's usage, never a stack", async () => {
    const r = await cli(["run", "--bogus", "x"], env);
    expectUsageError(r, /^patchgate: Unknown option '--bogus'\nusage: patchgate run --repo/);
  });

  test("run --help prints its usage on stdout and exits 0", async () => {
    const r = await cli(["run", "--help"], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/^usage: patchgate run --repo <path\|url>/);
  });

  test.each([
    ["resume", resumeCommand],
    ["list", listCommand],
    ["show", showCommand],
    ["trace", traceCommand],
    ["eval", evalCommand],
  ] as const)("%s --help prints its usage and returns 0", async (name, command) => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (b: Buffer) => (text += b.toString()));
    expect(await command(["--help"], out)).toBe(0);
    expect(text).toMatch(new RegExp(`^usage: patchgate ${name}\\b`));
  });

  test("an unknown command is a usage error listing the commands", async () => {
    const r = await cli(["frobnicate"], env);
    expectUsageError(r, /^patchgate: unknown command "frobnicate"\nusage:\n {2}patchgate run/);
  });

  test("--max-steps abc is refused before anything runs (it was NaN: a loop no limit stopped)", async () => {
    const r = await cli(["run", "--repo", repo.dir, "--max-steps", "abc", "task"], env);
    expectUsageError(r, `patchgate: --max-steps must be a positive integer, got "abc"\n`);
    expect(await sessionCount(data)).toBe(0);
  });

  test("--max-cost-usd 0 is refused the same way (in process)", async () => {
    await expect(runCommand(["--repo", repo.dir, "--data-dir", data, "--max-cost-usd", "0", "task"], new PassThrough())).rejects.toThrow(
      new UsageError(`--max-cost-usd must be a positive number, got "0"`),
    );
  });

  test("a --repo that does not exist is refused before a session is created", async () => {
    const r = await cli(["run", "--repo", "/does/not/exist", "task"], env);
    expectUsageError(r, "patchgate: --repo /does/not/exist: no such directory\n");
    expect(await sessionCount(data)).toBe(0);
  });

  test("a --repo that is not a git repository, or has no commit, is refused the same way", async () => {
    const plain = tempDir("pg-plain-");
    const empty = tempDir("pg-empty-");
    execFileSync("git", ["init", "-q", empty]);
    try {
      const run = (dir: string) => runCommand(["--repo", dir, "--data-dir", data, "task"], new PassThrough());
      await expect(run(plain)).rejects.toThrow(new UsageError(`--repo ${plain}: not a git repository (run \`git init\` and commit first)`));
      await expect(run(empty)).rejects.toThrow(new UsageError(`--repo ${empty}: has no commit yet; commit what the session should start from`));
      expect(await sessionCount(data)).toBe(0);
    } finally {
      rmSync(plain, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test("uncommitted changes in --repo are refused with the hint, untracked files included", async () => {
    const dirty = makeRepo(BUGGY_ADD_REPO);
    try {
      writeFileSync(join(dirty.dir, "src/add.js"), "export const add = (a, b) => a + b;\n");
      writeFileSync(join(dirty.dir, "notes.txt"), "new\n");
      const r = runCommand(["--repo", dirty.dir, "--data-dir", data, "task"], new PassThrough());
      await expect(r).rejects.toThrow(/has 2 uncommitted change\(s\), which a session would not see\. Commit or stash them, or pass --include-uncommitted/);
      expect(await sessionCount(data)).toBe(0);
    } finally {
      dirty.cleanup();
    }
  });

  test("a clone that fails after the session exists ends that session failed, with one plain line", async () => {
    const own = tempDir("pg-usage-remote-");
    try {
      // A model endpoint that answers, so the clone is what fails.
      const model = await startFakeOpenAI([]);
      const r = await cli(["run", "--repo", "http://127.0.0.1:9/nothing.git", "task"], { ...KEY, OPENAI_BASE_URL: model.baseURL, PATCHGATE_DATA_DIR: own });
      await model.close();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^patchgate: session \S+ failed: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const store = SqliteSessionStore.open(join(own, "patchgate.sqlite"));
      const [s] = await store.list();
      const events = await store.load(s.id);
      await store.close();
      expect({ phase: s.phase, last: events.at(-1)?.type }).toEqual({ phase: "failed", last: "session_failed" });
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
