import { readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionHistory } from "../helpers/session-history.js";
import type { FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { runCli, spawnCli } from "../helpers/cli-process.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";

// The setup counts its runs in an ignored file of the clone, and holds while `.git/pg-hold-setup`
// exists (the sandbox sees .git read-only): where the CLI is killed in the middle of it.
const SETUP = `echo run >> setup.runs
if [ -e .git/pg-hold-setup ]; then echo SETUP-HOLDING; exec sleep 600; fi
echo SETUP-DONE
`;
const REPO = { ...BUGGY_ADD_REPO, "setup.sh": SETUP, ".gitignore": "setup.runs\n", ".github/patchgate.yml": "setup: sh setup.sh\ntest: sh test.sh\n" };

const steps = {
  read: { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  plan: { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
  edit: { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  tests: { toolCalls: [{ name: "run_tests", arguments: {} }] },
  finish: { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
} satisfies Record<string, FakeStep>;

/** kill -9 of `patchgate run` in the middle of the setup, and right after it: the setup is recorded once. */
describe("the setup step survives a SIGKILL", () => {
  const sessions = cliSessions();
  let server: FakeOpenAIServer | undefined;

  async function start(script: FakeStep[], hold: boolean) {
    let data = "";
    const clone = () => join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
    // The hold file goes into the clone as soon as it exists: while the model plans, before setup.
    const first = hold ? [(() => (writeFileSync(join(clone(), ".git", "pg-hold-setup"), ""), steps.read)) as FakeStep] : [steps.read];
    const s = await sessions.start([...first, ...script], { files: REPO, prefix: "pg-crash-setup-", key: "sk-crash-setup-key" });
    ({ server, data } = s);
    const env = s.env;
    const run = await spawnCli(["run", "--repo", s.repo, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);
    return { run, env, data, clone };
  }

  async function resumeToTheEnd(env: Record<string, string>, out: string) {
    const sessionId = /session (\S+)/.exec(out)![1];
    const resumed = await runCli(["resume", sessionId, "--approve-plan", "--approve-writes"], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`done: branch patchgate/${sessionId.slice(0, 8)}`);
    expect(server!.violations).toEqual([]);
    expect(server!.remaining()).toBe(0);
  }

  test("killed while the setup runs: the resume runs it again, and the ledger records it once", async () => {
    const { run, env, data, clone } = await start([steps.plan, steps.edit, steps.tests, steps.finish], true);
    await run.printed("SETUP-HOLDING");
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");
    expect((await sessionHistory(data)).some((e) => e.type === "setup_run")).toBe(false);
    unlinkSync(join(clone(), ".git", "pg-hold-setup"));

    await resumeToTheEnd(env, run.stdout());
    const setups = (await sessionHistory(data)).filter((e) => e.type === "setup_run");
    expect(setups).toHaveLength(1);
    expect(setups[0]).toMatchObject({ command: "sh setup.sh", exitCode: 0 });
    // The killed run's writes went with its sandbox (they were in its own layer): only the recorded run's are kept.
    expect(readFileSync(join(clone(), "setup.runs"), "utf8")).toBe("run\n");
  });

  test("killed right after the setup (waiting for the model): the resume does not run it again", async () => {
    const { run, env, data, clone } = await start([steps.plan, { hold: true }, steps.edit, steps.tests, steps.finish], false);
    await server!.held();
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");
    expect((await sessionHistory(data)).filter((e) => e.type === "setup_run")).toHaveLength(1);

    await resumeToTheEnd(env, run.stdout());
    expect((await sessionHistory(data)).filter((e) => e.type === "setup_run")).toHaveLength(1);
    expect(readFileSync(join(clone(), "setup.runs"), "utf8")).toBe("run\n");
  });
});
