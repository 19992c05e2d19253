import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import type { StoredEvent } from "../../src/session/events.js";
import { sessionHistory } from "../helpers/session-history.js";
import { startFakeOpenAI } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { runCli } from "../helpers/cli-process.js";

/**
 * One real project layout, driven end to end through `patchgate run` (real bubblewrap, real
 * toolchains, dependencies from the registry in setup where the layout has any) with a scripted
 * model that reads the buggy file, plans, fixes it, runs the tests and finishes.
 */
export interface Layout {
  name: string;
  files: Record<string, string>;
  /** The file with the bug, and the one edit that fixes it. */
  fix: { path: string; search: string; replace: string };
  /** A failing test's name as the runner reports it (parsed from the baseline run). */
  failingTest: string;
}

export interface LayoutOutcome {
  code: number;
  stdout: string;
  stderr: string;
  events: StoredEvent[];
  /** Paths the result commit changes against the repository's HEAD, and the fixed file in it. */
  changed: string[];
  fixed: string;
  expectedFixed: string;
  requestsLeft: number;
}

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, encoding: "utf8" });

/**
 * The CLI from the compiled tree (helpers/cli-process.ts). Installing from the registry under load
 * takes minutes: the jest timeout is the outer bound.
 */
const cli = (args: string[], env: Record<string, string>) => runCli(args, env, { timeoutMs: 900_000, maxBuffer: 64 * 1024 * 1024 });

export async function runLayout(layout: Layout): Promise<LayoutOutcome> {
  const repo = makeRepo(layout.files);
  const data = tempDir(`pg-layout-${layout.name}-`);
  const { path, search, replace } = layout.fix;
  const steps: FakeStep[] = [
    { toolCalls: [{ name: "read_file", arguments: { path } }] },
    { toolCalls: [{ name: "submit_plan", arguments: { summary: `Fix ${path}`, steps: [`Fix ${path}`, "Run the tests"] } }] },
    { toolCalls: [{ name: "edit_file", arguments: { path, edits: [{ search, replace }] } }] },
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    { toolCalls: [{ name: "finish", arguments: { summary: `Fixed ${path}; the tests pass.` } }] },
  ];
  const server = await startFakeOpenAI(steps);
  try {
    const env = { OPENAI_API_KEY: "sk-layout-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", `Fix the failing test in ${path}`], env);
    const events = await sessionHistory(data);
    const fetchLine = /\n {2}git fetch (\S+) (\S+)\n/.exec(r.stdout);
    let changed: string[] = [];
    let fixed = "";
    if (fetchLine) {
      git(repo.dir, "fetch", "--quiet", fetchLine[1], fetchLine[2]);
      changed = git(repo.dir, "diff", "--name-only", "HEAD", "FETCH_HEAD").split("\n").filter(Boolean);
      fixed = git(repo.dir, "show", `FETCH_HEAD:${path}`);
    }
    const expectedFixed = layout.files[path].replace(search, replace);
    return { ...r, events, changed, fixed, expectedFixed, requestsLeft: server.remaining() };
  } finally {
    await server.close();
    repo.cleanup();
    rmSync(data, { recursive: true, force: true });
  }
}

/** Asked with npm itself, so the registry and proxy settings are the ones setup will use. */
export function npmRegistryReachable(spec: string): boolean {
  try {
    return execFileSync("npm", ["view", spec, "version"], { encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "ignore"] }).trim() !== "";
  } catch {
    return false;
  }
}

/** A layout that needs something absent: one printed line, or a failure under CI (PATCHGATE_CI). */
export function missing(what: string): boolean {
  if (process.env.PATCHGATE_CI) throw new Error(`this real-layout test must run in CI and needs ${what}`);
  console.log(`skipped: needs ${what}`);
  return true;
}

export function hasProgram(name: string, args: string[] = ["--version"]): boolean {
  try {
    execFileSync(name, args, { stdio: "ignore", timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** What every layout must show once it ran. */
export function expectFixedAlone(o: LayoutOutcome, layout: Layout): void {
  // The CLI's last output says why, when it did not finish.
  expect({ code: o.code, stderr: o.stderr, tail: o.code === 0 ? "" : o.stdout.slice(-4000) }).toEqual({ code: 0, stderr: "", tail: "" });
  expect(o.changed).toEqual([layout.fix.path]);
  expect(o.fixed).toBe(o.expectedFixed);
  expect(o.requestsLeft).toBe(0);
  const baseline = o.events.find((e) => e.type === "baseline_run");
  expect(baseline?.type === "baseline_run" && baseline.exitCode !== 0).toBe(true);
  expect(baseline?.type === "baseline_run" ? baseline.failing : null).toContain(layout.failingTest);
  const runs = o.events.filter((e) => e.type === "test_run");
  expect(runs.map((e) => e.type === "test_run" && e.exitCode)).toEqual([0]);
}
