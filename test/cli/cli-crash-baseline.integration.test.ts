import { readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredEvent } from "../../src/session/events.js";
import { sessionHistory } from "../helpers/session-history.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { runCli, spawnCli } from "../helpers/cli-process.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";

// The tests change a tracked file, so every run that ends has its change put back and the ledger
// names the run (changes_rolled_back); they hold while `.git/pg-hold-tests` exists (the sandbox sees
// .git read-only): the baseline is where the CLI is killed.
const TESTS = `echo run >> tests.runs
if [ -e .git/pg-hold-tests ]; then echo TESTS-HOLDING; exec sleep 600; fi
${BUGGY_ADD_REPO["test.sh"]}`;
const REPO = { ...BUGGY_ADD_REPO, "test.sh": TESTS, "tests.runs": "" };

const steps = {
  read: { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  readme: { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] },
  plan: { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
  edit: { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  tests: { toolCalls: [{ name: "run_tests", arguments: {} }] },
  finish: { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
} satisfies Record<string, FakeStep>;

const indexOf = (h: readonly StoredEvent[], p: (e: StoredEvent) => boolean): number => h.findIndex(p);
const resultOf = (tool: string) => (e: StoredEvent) => e.type === "tool_result" && e.tool === tool;

/**
 * The baseline test run goes on beside the model: its calls and reads are answered while the tests
 * run, an edit waits for them. kill -9 of `patchgate run` while the baseline holds, after two reads
 * were answered beside it: the resume runs the baseline again, on the base tree, and records it once,
 * before the edit.
 */
describe("the baseline beside the model survives a SIGKILL", () => {
  const sessions = cliSessions();

  test("killed while the baseline runs and the model reads: the resume runs it once more, records it once, before the edit", async () => {
    let data = "";
    const clone = () => join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
    // The hold goes into the clone while the model plans, before execute mode starts the baseline.
    const holdThenRead = (() => (writeFileSync(join(clone(), ".git", "pg-hold-tests"), ""), steps.read)) as FakeStep;
    const s = await sessions.start([holdThenRead, steps.plan, steps.read, steps.readme, { hold: true }, steps.edit, steps.tests, steps.finish], {
      files: REPO,
      prefix: "pg-crash-baseline-",
      key: "sk-crash-baseline-key",
    });
    const { server, env } = s;
    data = s.data;
    const run = await spawnCli(["run", "--repo", s.repo, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);

    // Both at once: the baseline holds, and the model was asked a third time in execute mode.
    await Promise.all([run.printed("TESTS-HOLDING"), server.held()]);
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");
    const killed = await sessionHistory(data);
    expect(killed.some((e) => e.type === "baseline_run")).toBe(false);
    const approvedAt = indexOf(killed, (e) => e.type === "plan_approved");
    expect(killed.slice(approvedAt).filter(resultOf("read_file"))).toHaveLength(2); // answered beside the held baseline
    unlinkSync(join(clone(), ".git", "pg-hold-tests"));

    const sessionId = /session (\S+)/.exec(run.stdout())![1];
    const resumed = await runCli(["resume", sessionId, "--approve-plan", "--approve-writes"], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`done: branch patchgate/${sessionId.slice(0, 8)}`);
    expect(server.violations).toEqual([]);
    expect(server.remaining()).toBe(0);

    const history = await sessionHistory(data);
    const baselines = history.filter((e) => e.type === "baseline_run");
    expect(baselines).toHaveLength(1);
    // The base tree: add() still subtracts, so its test fails there.
    expect(baselines[0]).toMatchObject({ command: "sh test.sh", exitCode: 1 });
    expect(indexOf(history, (e) => e.type === "baseline_run")).toBeLessThan(indexOf(history, resultOf("edit_file")));
    // Nothing ran twice beyond the kill: the resume's baseline, then run_tests on the edited tree. The
    // killed baseline's write went with its sandbox (its writes were in its own layer).
    expect(history.filter((e) => e.type === "test_run")).toHaveLength(1);
    const ran = history.flatMap((e) => (e.type === "changes_rolled_back" && e.paths.includes("tests.runs") ? [e.tool] : []));
    expect(ran).toEqual(["baseline", "run_tests"]);
    expect(readFileSync(join(clone(), "tests.runs"), "utf8")).toBe("");
  });
});
