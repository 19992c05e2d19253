import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { runCli } from "../helpers/cli-process.js";

describe("patchgate CLI, end to end", () => {
  const sessions = cliSessions();

  test("run: plan, approved edit, passing tests, finish → a commit on a branch in the clone", async () => {
    const { repo, data, server, env } = await sessions.start([
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run tests"] } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
    ]);
    const r = await runCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Fix add: add(2, 3) should be 5"], env);

    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(server.remaining()).toBe(0);
    expect(server.requests[0].authorization).toBe("Bearer sk-cli-test-key");
    const sessionId = /session (\S+)/.exec(r.stdout)![1];
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    expect(r.stdout).toContain(`done: branch ${branch}`);
    expect(r.stdout).toContain("src/add.js");
    expect(r.stdout).toContain("\n    │ ok\n"); // the test script's output, streamed as it ran
    const show = (ref: string) => execFileSync("git", ["-C", clone, "show", ref], { encoding: "utf8" });
    expect(show(`${branch}:src/add.js`)).toBe("export function add(a, b) {\n  return a + b;\n}\n");
    expect(show(`${branch}`)).toContain("Fix add: add(2, 3) should be 5");

    // `show` prints the check run's report as text; `--markdown` the check run's very markdown.
    const shown = await runCli(["show", sessionId], { PATCHGATE_DATA_DIR: data });
    expect(shown.code).toBe(0);
    const commit = execFileSync("git", ["-C", clone, "rev-parse", branch], { encoding: "utf8" }).trim();
    const tree = execFileSync("git", ["-C", clone, "rev-parse", `${branch}^{tree}`], { encoding: "utf8" }).trim();
    expect(shown.stdout.split("\n").slice(0, 3)).toEqual([
      "Patchgate: Done: 1 file changed, tests passed",
      "",
      `✅ Done — committed \`${commit.slice(0, 7)}\` on the local branch \`${branch}\`; the tests passed on exactly that commit's tree.`,
    ]);
    expect(shown.stdout).toContain(`- On the commit \`${commit.slice(0, 7)}\` — tree \`${tree.slice(0, 12)}\`, the very tree the tests ran on: ✅ passed`);
    // Flags answered before anyone saw the plan or the writes: recorded and shown as such, never as a human's approval.
    expect(shown.stdout).toContain("— pre-approved by --approve-plan at");
    expect(shown.stdout).toContain("— pre-approved by --approve-writes at");
    expect(shown.stdout).not.toContain("via the terminal");
    // Nothing was pushed and GitHub annotated nothing: the report of a local session says neither.
    expect(shown.stdout).not.toMatch(/\bpushed\b|provenance annotation/);
    expect(shown.stdout).toContain("▸ Step 1 · ");
    expect(shown.stdout).not.toContain("<details>");
    const markdown = await runCli(["show", sessionId, "--markdown"], { PATCHGATE_DATA_DIR: data });
    expect(markdown.stdout).toContain("<details><summary>Step 1 · ");
    const events = await runCli(["show", sessionId, "--events"], { PATCHGATE_DATA_DIR: data });
    for (const event of ["session_created", "plan_submitted", "plan_approved", "approval_granted", "test_run", "finish_accepted", "published"]) {
      expect(events.stdout).toContain(event);
    }
    const wrong = await runCli(["show", sessionId, "--bogus"], { PATCHGATE_DATA_DIR: data });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^patchgate: Unknown option '--bogus'[\s\S]*\nusage: patchgate show /);
  });

  test("every line printed is redacted: a token planted in the plan never reaches the terminal whole", async () => {
    const token = ["ghp", "_", "Q".repeat(6), "r7".repeat(15)].join("");
    const { repo, env } = await sessions.start([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: `rotate ${token} first`, steps: [`then use ${token}`] } }] },
      { toolCalls: [{ name: "report_blocked", arguments: { reason: "stop here" } }] },
    ]);
    const r = await runCli(["run", "--repo", repo, "--approve-plan", "Fix add"], env);
    expect(r.stdout).toContain("Plan (");
    expect(r.stdout).toContain("rotate [REDACTED:github_token] first");
    expect(r.stdout + r.stderr).not.toContain(token);
  });

  test("blocked with work written: the untested work is committed on a branch of the clone, and the exact git fetch is printed", async () => {
    const { repo, data, env } = await sessions.start([
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a * b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "report_blocked", arguments: { reason: "I cannot make the test pass" } }] },
    ]);
    const r = await runCli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Fix add"], env);
    expect(r.code).toBe(1);
    const sessionId = /session (\S+)/.exec(r.stdout)![1]!;
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}-untested`;
    expect(r.stdout).toContain("blocked: I cannot make the test pass");
    expect(r.stdout).toMatch(
      new RegExp(`the work so far, untested, is on branch ${branch} at [0-9a-f]{12} in ${clone}; fetch it with:\n  git fetch ${clone} ${branch}:${branch}\n`),
    );
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" });
    expect(git("show", `${branch}:src/add.js`)).toBe("export function add(a, b) {\n  return a * b;\n}\n");
    expect(git("log", "-1", "--format=%s", branch)).toBe("Untested work so far: Fix add\n");
  });

  test("without OPENAI_API_KEY it says so and exits non-zero, no stack trace", async () => {
    const r = await runCli(["run", "--repo", sessions.repo(), "do something"], { PATCHGATE_DATA_DIR: sessions.tempDir("pg-cli-") });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("patchgate: OPENAI_API_KEY is not set. Set it (and OPENAI_BASE_URL for any OpenAI-compatible server) to run a session.\n");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test("a bad PATCHGATE_PRIVATE_DESTINATIONS entry is one line naming the variable and the entry, before any session", async () => {
    const data = sessions.tempDir("pg-cli-");
    const r = await runCli(["run", "--repo", sessions.repo(), "do something"], {
      PATCHGATE_DATA_DIR: data,
      PATCHGATE_PRIVATE_DESTINATIONS: "svc.internal:8080 *.internal",
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('patchgate: PATCHGATE_PRIVATE_DESTINATIONS: "*.internal" is not an exact host or host:port (no wildcards)\n');
  });
});
