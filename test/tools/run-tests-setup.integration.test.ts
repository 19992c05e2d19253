import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { SETUP_MARKER } from "../../src/runs/test-setup.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { config, REPO, write } from "./helpers/run-tests-repo.js";
import { codeOf, dataOf, type ToolHarness } from "./helpers/tool-harness.js";

/** run_tests' setup step: once before the first run, offline once the workspace changed, a failure remembered until its inputs change. */
describe("run_tests setup", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });

  test("setup runs once, before the first run, and leaves a marker", async () => {
    const h = await make({ ...REPO, ".gitignore": "runs.log\nsetup.log\n" }, { sandbox, repoConfig: config({ setup: "echo setup >> setup.log" }) });
    const { events } = await h.call(runTestsTool, {});
    expect(events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
    expect(events[0]).toEqual({
      type: "setup_run",
      command: "echo setup >> setup.log",
      exitCode: 0,
      durationMs: (events[0] as { durationMs: number }).durationMs,
      network: true,
      summary: "exit code 0",
      inputDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(existsSync(join(h.workspace.root, SETUP_MARKER))).toBe(true);
    write(h, "extra.txt", "changed\n");
    const second = await h.call(runTestsTool, {});
    expect(second.events.map((e) => e.type)).toEqual(["test_run"]);
    expect(readFileSync(join(h.workspace.root, "setup.log"), "utf8")).toBe("setup\n");
  });

  // Setup runs workspace files (package.json scripts, a Makefile). Once the agent has changed the
  // workspace they may be its own code, which must not get the host's network.
  describe("network_for_setup", () => {
    const networked = config({ setup: "true", sandbox: { ...DEFAULT_REPO_CONFIG.sandbox, network_for_setup: true } });
    const recording = (seen: boolean[]): Sandbox => ({
      backend: sandbox.backend,
      run: (req) => {
        seen.push(req.network === true);
        return sandbox.run(req);
      },
    });

    test("withheld once a write or command has run (latestDiff is set): the setup runs offline and says why", async () => {
      const seen: boolean[] = [];
      const h = await make(REPO, { sandbox: recording(seen), repoConfig: { ...networked, setup: "exit 3" } });
      h.push({ type: "diff_updated", diff: await h.workspace.diff([]) }); // what any workspace-changing tool leaves
      const { result, events } = await h.call(runTestsTool, {});
      expect(seen).toEqual([false]);
      expect(events[0]).toMatchObject({ type: "setup_run", network: false, withheld: { reason: "workspace_changed" } });
      expect(result.ok ? null : result.error.message).toContain(
        "It ran without network access: the session had already changed the workspace, so the setup would run files nobody reviewed.",
      );
    });

    test("given while nothing has changed the workspace", async () => {
      const seen: boolean[] = [];
      const h = await make(REPO, { sandbox: recording(seen), repoConfig: networked });
      const { events } = await h.call(runTestsTool, {});
      expect(seen[0]).toBe(true);
      expect(events[0]).toMatchObject({ type: "setup_run", network: true });
    });
  });

  test("a failing setup is setup_failed: no marker, no test run; the next run answers the recorded failure without running it", async () => {
    const offline = { ...DEFAULT_REPO_CONFIG.sandbox, network_for_setup: false };
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo 'npm ERR! missing' >&2; exit 7", sandbox: offline }) });
    const { result, events } = await h.call(runTestsTool, {});
    expect(result).toEqual({
      ok: false,
      error: {
        code: "setup_failed",
        message:
          "The repository's setup command `echo 'npm ERR! missing' >&2; exit 7` exited with 7, so the tests were not run. " +
          "It ran without network access: sandbox.network_for_setup is false in .github/patchgate.yml " +
          "(set it to true, the default, to let setup reach the package registries).\nexit code 7\nlast lines:\nnpm ERR! missing",
        details: { command: "echo 'npm ERR! missing' >&2; exit 7", exit_code: 7, timed_out: false, network: false },
      },
    });
    expect(events.map((e) => e.type)).toEqual(["setup_run"]);
    expect(existsSync(join(h.workspace.root, SETUP_MARKER))).toBe(false);
    const again = await h.call(runTestsTool, {});
    expect(again.events).toEqual([]);
    expect(again.result.ok ? null : again.result.error).toMatchObject({ code: "setup_failed", details: { recorded: true, exit_code: 7 } });
    expect(again.result.ok ? "" : again.result.error.message).toContain(
      "It is not run again until its inputs (manifests, lockfiles, the files it names) change, or the user runs `patchgate retry s-tools`.",
    );
  });

  // The setup counts its runs in a file it names, so the digest covers that file too: the test
  // changes a lockfile (an input) and an unrelated file (not one).
  describe("a failed setup runs again only when its inputs change or a human asks", () => {
    const failing = config({ setup: "echo setup >> setup.runs; test -f deps.lock" });
    const setupRuns = (h: ToolHarness) => readFileSync(join(h.workspace.root, "setup.runs"), "utf8").split("\n").filter(Boolean).length;
    const FILES = { ...REPO, ".gitignore": "runs.log\nsetup.runs\n", "package.json": '{"name":"x"}\n' };

    test("an unrelated change does not re-run it; a changed manifest does, and its pass is then memoised", async () => {
      const h = await make(FILES, { sandbox, repoConfig: failing });
      expect(codeOf((await h.call(runTestsTool, {})).result)).toBe("setup_failed");
      write(h, "notes.txt", "unrelated\n");
      expect((await h.call(runTestsTool, {})).events).toEqual([]);
      expect(setupRuns(h)).toBe(1);
      write(h, "deps.lock", "locked\n");
      write(h, "package.json", '{"name":"x","version":"1.0.0"}\n');
      const fixed = await h.call(runTestsTool, {});
      expect(fixed.events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
      expect(dataOf(fixed.result).passed).toBe(true);
      write(h, "notes.txt", "unrelated, again\n");
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["test_run"]);
      expect(setupRuns(h)).toBe(2);
    });

    test("setup_retry_requested (/agent retry) runs it again with the same inputs", async () => {
      const h = await make(FILES, { sandbox, repoConfig: failing });
      await h.call(runTestsTool, {});
      h.push({ type: "setup_retry_requested", by: "maintainer" });
      expect(h.state.setup).toBeNull();
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["setup_run"]);
      expect(setupRuns(h)).toBe(2);
    });

    test("a passed setup runs again when the workspace no longer holds its output (rebuilt: no marker)", async () => {
      const h = await make({ ...FILES, "deps.lock": "x\n" }, { sandbox, repoConfig: failing });
      await h.call(runTestsTool, {});
      rmSync(join(h.workspace.root, SETUP_MARKER));
      write(h, "notes.txt", "unrelated\n");
      expect((await h.call(runTestsTool, {})).events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
    });
  });

  test("the run is recorded on the published tree: setup output is not part of it", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo lock > deps.lock" }) });
    const base = await h.workspace.publishedTree([]);
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run");
    expect(readFileSync(join(h.workspace.root, "deps.lock"), "utf8")).toBe("lock\n");
    expect(run && run.type === "test_run" ? run.treeHash : null).toBe(base);
  });

  test("a file the agent wrote and setup rewrote: the run is recorded on the tree setup left", async () => {
    const h = await make(REPO, { sandbox, repoConfig: config({ setup: "echo rewritten > deps.lock" }) });
    write(h, "deps.lock", "agent's\n");
    const { events } = await h.call(runTestsTool, {});
    const run = events.find((e) => e.type === "test_run");
    expect(run && run.type === "test_run" ? run.treeHash : null).toBe(await h.workspace.publishedTree(["deps.lock"]));
    expect(await h.workspace.publishedTree(["deps.lock"])).not.toBe(await h.workspace.publishedTree([]));
  });
});
