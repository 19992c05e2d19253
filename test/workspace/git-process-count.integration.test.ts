import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

/**
 * Issue 15: every git process costs a spawn (and, in the app, blocks the event loop in proportion to
 * the process's size). A `git` shim first on PATH logs each invocation of the whole add.js session —
 * clone, plan, edit, test run, finish, commit — so a change that brings back a snapshot per operation
 * fails here, not in a benchmark nobody reads.
 */
// The session's 25, 3 for the result's receipt (src/receipt/): the commit read once, its parent's
// note looked up (a follow-up's receipt names it), the note written; and 1 per changed path for the
// test-integrity gate at finish (src/publish/integrity-input.ts reads every changed path's content on
// the base commit in one `cat-file --batch`).
const BOUND = 29;

describe("git processes per session", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  /** The git command lines of one session that writes `extra` files beside the fix (after the `-c` options). */
  async function sessionGitCalls(extra: string[]): Promise<string[]> {
    const repo = makeRepo(BUGGY_ADD_REPO);
    const data = tempDir("pg-gitcount-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    const bin = join(data, "shim");
    const log = join(data, "git.log");
    mkdirSync(bin);
    writeFileSync(log, "");
    // The log's path is in the script: git runs with a minimal environment (git-hardening.ts).
    writeFileSync(join(bin, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run tests"] } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      ...extra.map((p) => ({ toolCalls: [{ name: "write_file", arguments: { path: p, content: `// ${p}\n` } }] })),
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
    ]);
    const env = {
      OPENAI_API_KEY: "sk-cli-test-key",
      OPENAI_BASE_URL: server.baseURL,
      PATCHGATE_DATA_DIR: data,
      PATCHGATE_MODEL: "fake-model",
      PATH: `${bin}:${process.env.PATH}`,
    };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Fix add: add(2, 3) should be 5"], env);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("done: branch ");
    const calls = readFileSync(log, "utf8").split("\n").filter(Boolean);
    // The shim must have seen the session's git at all, or the bounds below prove nothing.
    expect(calls.some((c) => c.includes("commit-tree"))).toBe(true);
    return calls;
  }

  test(`the add.js session runs at most ${BOUND} git processes`, async () => {
    const calls = await sessionGitCalls([]);
    if (calls.length > BOUND) console.log(`git calls (${calls.length}):\n${calls.map((c) => c.replace(/^(-c \S+ )+/, "")).join("\n")}`);
    expect(calls.length).toBeLessThanOrEqual(BOUND);
  });

  test("the test-integrity gate reads the base of every changed path in one git process, however many changed", async () => {
    const calls = await sessionGitCalls(["src/one.js", "src/two.js", "src/three.js"]);
    const reads = calls.map((c) => c.replace(/^(-c \S+ )+/, "")).filter((c) => c.startsWith("cat-file"));
    expect(reads.filter((c) => /^cat-file blob [0-9a-f]{40}:/.test(c))).toEqual([]);
    expect(reads.filter((c) => c === "cat-file --batch")).toHaveLength(1);
  });
});
