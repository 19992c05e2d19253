import { DEFAULT_REPO_CONFIG, type RepoConfig } from "../../src/config/repo-config.js";
import type { SessionEvent, StoredEvent } from "../../src/session/events.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { timelineRows } from "../../src/trace/timeline.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { config, REPO } from "./helpers/run-tests-repo.js";

/**
 * A run that did not end by itself says how it was ended: the signal and the limit that sent it, in
 * the event (setup_run, test_run), and so in the timeline the CLI prints — never only "exit null".
 */
describe("a killed run records the signal and the limit", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });
  const withSandbox = (over: Partial<RepoConfig["sandbox"]>, rest: Partial<RepoConfig> = {}) =>
    config({ ...rest, sandbox: { ...DEFAULT_REPO_CONFIG.sandbox, network_for_setup: false, ...over } });
  const row = (e: SessionEvent) => timelineRows([{ ...e, seq: 1, at: "2026-12-05T00:00:00.000Z" } as StoredEvent])[0].detail;

  test("the setup's time limit", async () => {
    const repoConfig = withSandbox({}, { setup: "sleep 30", timeouts: { ...DEFAULT_REPO_CONFIG.timeouts, setup_seconds: 1 } });
    const h = await make(REPO, { sandbox, repoConfig });
    const { result, events } = await h.call(runTestsTool, {});
    expect(events[0]).toMatchObject({ type: "setup_run", exitCode: null, killed: { signal: "SIGKILL", limit: "time" } });
    // The summary the model and the check run read leads with it too, not "ended without an exit code".
    expect(events[0]).toMatchObject({ summary: expect.stringMatching(/^killed by SIGKILL: the time limit(\n|$)/) });
    expect(row(events[0])).toMatch(/^sleep 30 failed, killed by SIGKILL: the time limit \(timeouts\.setup_seconds\) in /);
    expect(result.ok ? "" : result.error.message).toContain("was killed by SIGKILL: the time limit (timeouts.setup_seconds, 1 s)");
  });

  test("the CPU-time limit of a test run", async () => {
    const h = await make(REPO, { sandbox, repoConfig: withSandbox({ cpu_seconds: 1 }, { test: "node -e 'for (;;) {}'" }) });
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run")!;
    expect(run).toMatchObject({ killed: { signal: "SIGXCPU", limit: "cpu" } });
    expect(row(run)).toContain("failed, killed by SIGXCPU: the CPU-time limit (sandbox.cpu_seconds)");
  });

  test("the memory limit of a test run", async () => {
    const grow = "node -e 'const a = []; for (;;) a.push(new Array(1e6).fill(1))'";
    const h = await make(REPO, { sandbox, repoConfig: withSandbox({ memory_mb: 768 }, { test: grow }) });
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run")!;
    expect(run).toMatchObject({ killed: { limit: "memory" } });
    expect(row(run)).toMatch(/failed, killed by SIG[A-Z]+: the memory limit \(sandbox\.memory_mb\)/);
  }, 60_000);

  test("a stopped session", async () => {
    const h = await make(REPO, { sandbox, repoConfig: withSandbox({}, { test: "echo started; sleep 30" }) });
    const stop = new AbortController();
    const ctx = { ...h.ctx(), signal: stop.signal, onOutput: (_s: string, line: string) => line === "started" && stop.abort() };
    const outcome = await runTestsTool.execute({}, ctx);
    const run = outcome.events!.find((e) => e.type === "test_run")!;
    expect(run).toMatchObject({ exitCode: null, killed: { limit: "stop" } });
    expect(row(run)).toContain("failed, killed by SIGKILL: the session being stopped");
  });

  test("a run that ends by itself records none", async () => {
    const h = await make(REPO, { sandbox, repoConfig: withSandbox({}, { test: "exit 3" }) });
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run")!;
    expect(run).toMatchObject({ exitCode: 3 });
    expect(run).not.toHaveProperty("killed");
    expect(row(run)).toMatch(/^exit 3 failed \(exit 3\) in /);
  });
});
