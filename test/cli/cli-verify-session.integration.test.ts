import { execFileSync } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cli } from "../helpers/run-cli.js";

/**
 * `patchgate verify --session` on a session the CLI really ran (model, approvals by flag, tests,
 * a commit on the clone's branch): its ledger verifies, commit and tree included; then one byte of
 * the stored plan changed on disk is named by seq and type.
 */
const sessions = cliSessions();

test("a real session's ledger verifies against its clone; a byte changed in its plan is named", async () => {
  const { repo, data, env } = await sessions.start(
    [
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run tests"] } }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
    ],
    { prefix: "pg-verify-" },
  );
  const run = await cli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Fix add"], env);
  expect(run.code).toBe(0);
  const sessionId = /session (\S+)/.exec(run.stdout)![1]!;
  const branch = `patchgate/${sessionId.slice(0, 8)}`;
  const commit = execFileSync("git", ["-C", join(data, "workspaces", sessionId), "rev-parse", branch], { encoding: "utf8" }).trim();

  const ok = await cli(["verify", "--session", sessionId.slice(0, 8)], { PATCHGATE_DATA_DIR: data });
  expect(ok.stderr).toBe("");
  expect(ok.stdout).toMatch(/^ok {3}chain: \d+ events, every link holds; head [0-9a-f]{64}$/m);
  expect(ok.stdout).toContain("ok   state: folds to phase done");
  expect(ok.stdout).toContain(`ok   published: commit ${commit} on ${branch}`);
  expect(ok.stdout).toContain(`ok   repository: branch ${branch} in `);
  expect(ok.code).toBe(0);

  const db = new Database(join(data, "patchgate.sqlite"));
  const row = db.prepare("SELECT seq FROM events WHERE session_id = ? AND type = 'plan_submitted'").get(sessionId) as { seq: number };
  expect(
    db.prepare("UPDATE events SET body = replace(body, 'make add add', 'make add adD') WHERE session_id = ? AND seq = ?").run(sessionId, row.seq).changes,
  ).toBe(1);
  db.close();
  const tampered = await cli(["verify", "--session", sessionId, "--json"], { PATCHGATE_DATA_DIR: data });
  expect(tampered.code).toBe(1);
  const report = JSON.parse(tampered.stdout) as { session: string; ok: boolean; findings: { check: string; status: string; message: string }[] };
  expect(report).toMatchObject({ session: sessionId, ok: false });
  expect(report.findings[0]).toEqual({
    check: "chain",
    status: "fail",
    message: `broken at event ${row.seq} (plan_submitted): its content, seq or time does not match its hash: it was changed after it was stored`,
  });
}, 240_000);
