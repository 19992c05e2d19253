import { execFileSync, spawn } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import type { FakeStep } from "../fakes/chat/turns.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { npmRegistryOrSkip } from "../helpers/npm-registry.js";
import { ROOT } from "../helpers/run-cli.js";

/**
 * A new user's first run: a real npm package from the registry (its files, git-inited, no
 * `.github/patchgate.yml`), `patchgate run` with a scripted model. The setup (`npm install`, detected)
 * reaches the registry by default and the run finishes, printing what runs and how it ended; with the
 * network opted out it fails at once, naming the setting. Needs the registry for the first test only:
 * without it that test says so in one line and passes, unless PATCHGATE_CI is set, where it fails.
 */
// A small package that publishes its tests, with one dev dependency to install: what a first run
// proves does not grow with the size of the package's tool chain (linters, coverage, audits).
const PACKAGE = "concat-map@0.0.1";

/** The package's published files, as a repository with one commit. */
function packageRepo(extra: Record<string, string> = {}): { dir: string; cleanup: () => void } {
  const tmp = tempDir("pg-pack-");
  try {
    execFileSync("npm", ["pack", "--silent", "--pack-destination", tmp, PACKAGE], { stdio: "ignore", timeout: 60_000 });
    execFileSync("tar", [
      "xzf",
      join(
        tmp,
        readdirSync(tmp).find((f) => f.endsWith(".tgz"))!,
      ),
      "-C",
      tmp,
    ]);
    const repo = makeRepo(extra, "pg-newcomer-");
    execFileSync("cp", ["-a", `${join(tmp, "package")}/.`, repo.dir]);
    execFileSync("git", ["add", "-A"], { cwd: repo.dir });
    execFileSync("git", ["-c", "user.name=New", "-c", "user.email=new@example.invalid", "commit", "-qm", "the package's files"], { cwd: repo.dir });
    return repo;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean = { ...process.env };
  delete clean.OPENAI_API_KEY;
  delete clean.OPENAI_BASE_URL;
  const child = spawn("node", ["--import", "tsx", join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT, env: { ...clean, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the first run on a real npm package, without any config", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  async function session(steps: FakeStep[], extra: Record<string, string> = {}) {
    const repo = packageRepo(extra);
    const data = tempDir("pg-newcomer-data-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    server = await startFakeOpenAI(steps);
    const env = { OPENAI_API_KEY: "sk-newcomer-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const started = Date.now();
    const r = await run(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Add a note on the first run"], env);
    return { ...r, seconds: (Date.now() - started) / 1000 };
  }

  test("setup installs from the registry, the tests pass, the session finishes, and each run shows progress", async () => {
    if (!npmRegistryOrSkip(PACKAGE, "0.0.1")) return;
    const r = await session([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "add a note", steps: ["write the note", "run the tests"] } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "docs/first-run.md", content: "# First run\n" } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "note added" } }] },
    ]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain(
      "setup: npm install, with network: package registries only (sandbox.network_for_setup) · tests: npm test (package.json scripts.test; no lockfile → npm) · sandbox: bubblewrap\n",
    );
    expect(r.stdout).toContain("  ▶ setup: npm install, with network (package registries only)\n");
    expect(r.stdout).toMatch(/ {2}■ setup ended after \d+\.\d s, \d+ lines of output\n/);
    expect(r.stdout).toMatch(/setup_run +npm install ok in [\d.]+ s, with network/);
    expect(r.stdout).toContain("  ▶ baseline tests: npm test\n");
    expect(r.stdout).toContain("  ▶ tests: npm test\n");
    expect(r.stdout).toMatch(/ {2}■ tests ended after \d+\.\d s, \d+ lines of output; tests: \d+ passed/);
    expect(r.stdout).toMatch(/test_run +npm test passed in/);
    expect(r.stdout).toMatch(/done: branch patchgate\//);
    // The tail and the counts, not every line npm and the runner printed.
    expect(r.stdout.split("\n").filter((l) => /^ {4}[│!] /.test(l)).length).toBeLessThanOrEqual(5 * 3);
  }, 900_000);

  test("with network_for_setup: false the setup fails within seconds and says which setting to change", async () => {
    const r = await session(
      [
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "run the tests", steps: ["run them"] } }] },
        { toolCalls: [{ name: "run_tests", arguments: {} }] },
        { toolCalls: [{ name: "report_blocked", arguments: { reason: "the setup cannot install" } }] },
      ],
      { ".github/patchgate.yml": "sandbox:\n  network_for_setup: false\n" },
    );
    expect(r.stdout).toContain("setup: npm install, without network (sandbox.network_for_setup: false in .github/patchgate.yml)");
    expect(r.stdout).toMatch(/setup_run +npm install failed \(exit 1\) in [\d.]+ m?s, without network: sandbox\.network_for_setup is false/);
    expect(r.stdout).toContain("ENOTCACHED");
    expect(r.code).toBe(1);
    // The whole session, from the CLI's start to its exit: no minutes of retries (the row shows where the time went).
    expect({ underHalfAMinute: r.seconds < 30, setup: /setup_run .*/.exec(r.stdout)?.[0] }).toEqual({ underHalfAMinute: true, setup: expect.any(String) });
  }, 120_000);
});
