import { execFileSync } from "node:child_process";
import { readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LLMRequest } from "../../src/agent/llm/types.js";
import type { FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { HOLDING_TESTS, ROOT, runCli, spawnCli } from "../helpers/cli-process.js";
import { cliMain } from "../helpers/compiled-app.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";

const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

const steps = {
  read: { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  plan: { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run the tests"] } }] },
  edit: { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  tests: { toolCalls: [{ name: "run_tests", arguments: {} }] },
  finish: { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
} satisfies Record<string, FakeStep>;

/** kill -9 of `patchgate run` at an awkward point, then `patchgate resume` in a new process. */
describe("the CLI killed with SIGKILL, then resumed", () => {
  const sessions = cliSessions();
  let server: FakeOpenAIServer | undefined;

  async function setup(script: (clone: () => string) => FakeStep[]) {
    let data = "";
    const clone = () => join(data, "workspaces", readdirSync(join(data, "workspaces"))[0]);
    const s = await sessions.start(script(clone), { files: { ...BUGGY_ADD_REPO, "test.sh": HOLDING_TESTS }, prefix: "pg-crash-", key: "sk-crash-test-key" });
    data = s.data;
    server = s.server;
    return { repo: s.repo, env: s.env, clone };
  }

  /** Resumes in a new process and checks the end: one commit with the fix and nothing else, no violation. */
  async function resumeToTheEnd(env: Record<string, string>, clone: string, out: string, source: string) {
    const base = execFileSync("git", ["-C", source, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const sessionId = /session (\S+)/.exec(out)![1];
    const resumed = await runCli(["resume", sessionId, "--approve-plan", "--approve-writes"], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`done: branch patchgate/${sessionId.slice(0, 8)}`);
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" }).trim();
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    expect(git("rev-list", "--count", `${base}..${branch}`)).toBe("1");
    expect(git("diff", "--name-only", base, branch)).toBe("src/add.js");
    expect(git("show", `${branch}:src/add.js`) + "\n").toBe(FIXED);
    expect(server!.violations).toEqual([]);
    expect(server!.remaining()).toBe(0);
    return sessionId;
  }

  test("killed while run_tests runs: resume puts the workspace back, runs the tests again, finishes with one commit", async () => {
    const { repo, env, clone } = await setup((clonePath) => [
      steps.read,
      steps.plan,
      steps.edit,
      () => {
        writeFileSync(join(clonePath(), ".git", "pg-hold"), "");
        return steps.tests;
      },
      steps.finish,
    ]);
    const run = await spawnCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);
    await run.printed("HOLDING");
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");
    unlinkSync(join(clone(), ".git", "pg-hold"));

    const sessionId = await resumeToTheEnd(env, clone(), run.stdout(), repo);
    const shown = execFileSync("node", [await cliMain(), "show", sessionId, "--events"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(shown.match(/tool_result +run_tests ok/g)).toHaveLength(1); // answered once: by the run after the restart
    expect(shown).not.toContain(".partial-output");
  });

  test("killed while waiting for the model: resume sends the same request again, finishes with one commit", async () => {
    const requests: LLMRequest[] = [];
    const { repo, env, clone } = await setup(() => [
      steps.read,
      steps.plan,
      (req) => (requests.push(req), { hold: true }),
      (req) => (requests.push(req), steps.edit),
      steps.tests,
      steps.finish,
    ]);
    const run = await spawnCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "--verbose", "Fix add"], env);
    await server!.held();
    run.child.kill("SIGKILL");
    expect(await run.exited).toBe("SIGKILL");

    await resumeToTheEnd(env, clone(), run.stdout(), repo);
    // The request the dead process was waiting for, and the first one after the restart: the same
    // conversation — nothing lost, nothing answered twice.
    expect(requests[1].messages).toEqual(requests[0].messages);
  });
});
