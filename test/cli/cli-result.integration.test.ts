import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredEvent } from "../../src/session/events.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cli } from "../helpers/run-cli.js";

const FIX = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
];
const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, encoding: "utf8" });

async function firstEvent(data: string): Promise<StoredEvent> {
  const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
  try {
    const [s] = await store.list();
    return (await store.load(s.id))[0];
  } finally {
    await store.close();
  }
}

describe("patchgate run: where the result goes", () => {
  const sessions = cliSessions();
  const start = () => sessions.start(FIX, { prefix: "pg-result-", key: "sk-result-key" });

  test("the printed `git fetch` line works as printed, --out writes a patch `git am` applies, the session has the default cost cap", async () => {
    const { repo, data, env } = await start();
    const patch = join(data, "fix.patch");
    const r = await cli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "--out", patch, "Fix add"], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).not.toContain("\x1b[K"); // a pipe gets no status line

    // The printed line, run as printed, creates the branch in the user's repository (not only FETCH_HEAD).
    const fetchLine = /\n {2}(git fetch \S+ \S+)\n/.exec(r.stdout)![1];
    const [, , from, refspec] = fetchLine.split(" ");
    git(repo, "fetch", "--quiet", from, refspec);
    const branch = refspec.split(":")[1];
    expect(refspec).toBe(`${branch}:${branch}`);
    expect(git(repo, "show", `${branch}:src/add.js`)).toBe("export function add(a, b) {\n  return a + b;\n}\n");

    expect(r.stdout).toContain(`patch written to ${patch}`);
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "am", "--quiet", patch);
    expect(readFileSync(join(repo, "src/add.js"), "utf8")).toBe("export function add(a, b) {\n  return a + b;\n}\n");

    const created = await firstEvent(data);
    expect(created.type === "session_created" && created.settings.limits).toEqual({ maxCostUsd: 5 });
  });

  test("--include-uncommitted starts from a snapshot of the changes, leaving the user's index and tree untouched", async () => {
    const { repo, data, env } = await start();
    writeFileSync(join(repo, "README.md"), "# fixture, edited and not committed\n");
    writeFileSync(join(repo, "TODO.txt"), "untracked\n");
    const statusBefore = git(repo, "status", "--porcelain");
    const r = await cli(["run", "--repo", repo, "--include-uncommitted", "--max-cost-usd", "0.5", "--approve-plan", "--approve-writes", "Fix add"], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain("started from a snapshot of 2 uncommitted change(s) on top of HEAD");
    const [, , from, branch] = /\n {2}(git fetch \S+ \S+)\n/.exec(r.stdout)![1].split(" ");
    git(repo, "fetch", "--quiet", from, branch);
    expect(git(repo, "show", "FETCH_HEAD:README.md")).toBe("# fixture, edited and not committed\n");
    expect(git(repo, "show", "FETCH_HEAD:TODO.txt")).toBe("untracked\n");
    expect(git(repo, "diff", "--name-only", "FETCH_HEAD~1", "FETCH_HEAD")).toBe("src/add.js\n");
    expect(git(repo, "status", "--porcelain")).toBe(statusBefore);
    const created = await firstEvent(data);
    expect(created.type === "session_created" && created.settings.limits).toEqual({ maxCostUsd: 0.5 });
  });
});
