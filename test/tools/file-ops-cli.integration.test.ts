import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { cliSessions } from "../helpers/cli-sessions.js";
import { cli } from "../helpers/run-cli.js";

/** A module long enough that git sees a one-line fix of a moved file as a rename, not a delete and an add. */
const ADD_JS = [
  "// Arithmetic helpers used by the calculator.",
  "// Each function takes two numbers and returns a number.",
  "",
  "export function add(a, b) {",
  "  return a - b;",
  "}",
  "",
  "export function mul(a, b) {",
  "  return a * b;",
  "}",
  "",
  "export function neg(a) {",
  "  return -a;",
  "}",
  "",
].join("\n");

const REPO = {
  "src/add.js": ADD_JS,
  "src/old-helper.js": "export const unused = true;\n",
  "test.sh":
    'node --input-type=module -e \'import { add } from "./lib/add.js"; if (add(2, 3) !== 5) { console.log("FAIL"); process.exit(1); } console.log("ok");\'\n',
  ".github/patchgate.yml": "test: sh test.sh\n",
};

/**
 * An unattended session with writes approved in advance renames a file with changes and deletes another,
 * with file tools: what is published is exactly that rename (git finds it by similarity) and that delete.
 * No terminal: the flag is the only approver.
 */
describe("patchgate run: delete_file and move_file, unattended, writes approved", () => {
  const sessions = cliSessions();

  test("the branch holds exactly the rename with its change and the delete", async () => {
    const { repo, data, env } = await sessions.start(
      [
        { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "move add to lib and fix it", steps: ["move", "fix", "test"] } }] },
        {
          toolCalls: [
            { name: "move_file", arguments: { from: "src/add.js", to: "lib/add.js" } },
            { name: "delete_file", arguments: { path: "src/old-helper.js" } },
          ],
        },
        // Read at its old path only: the edit context moved with the file.
        { toolCalls: [{ name: "edit_file", arguments: { path: "lib/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
        { toolCalls: [{ name: "run_tests", arguments: {} }] },
        { toolCalls: [{ name: "finish", arguments: { summary: "add lives in lib and adds" } }] },
      ],
      { files: REPO, prefix: "pg-cli-fileops-" },
    );
    const r = await cli(["run", "--repo", repo, "--approve-plan", "--approve-writes", "Move add to lib/ and fix it"], env);

    if (r.code !== 0) throw new Error(`exit ${r.code}\n${r.stdout}\n${r.stderr}`);
    const sessionId = /session (\S+)/.exec(r.stdout)![1];
    const clone = join(data, "workspaces", sessionId);
    const branch = `patchgate/${sessionId.slice(0, 8)}`;
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" });
    const base = git("rev-parse", `${branch}~1`).trim();
    expect(git("diff", "--name-status", "-M", base, branch).trim().split("\n")).toEqual([
      expect.stringMatching(/^R09\d\tsrc\/add\.js\tlib\/add\.js$/),
      "D\tsrc/old-helper.js",
    ]);
    expect(git("show", `${branch}:lib/add.js`)).toBe(ADD_JS.replace("a - b", "a + b"));

    const events = await cli(["show", sessionId, "--events"], { PATCHGATE_DATA_DIR: data });
    expect(events.stdout).toMatch(/renamed src\/add\.js → lib\/add\.js/);
    expect(events.stdout).toMatch(/deleted src\/old-helper\.js/);
  });

  test("unattended, a rm is refused with a pointer to delete_file", async () => {
    const { repo, data, env } = await sessions.start(
      [
        { toolCalls: [{ name: "submit_plan", arguments: { summary: "drop the helper", steps: ["delete it"] } }] },
        { toolCalls: [{ name: "run_command", arguments: { argv: ["rm", "src/old-helper.js"] } }] },
        { toolCalls: [{ name: "report_blocked", arguments: { reason: "cannot delete" } }] },
      ],
      { files: REPO, prefix: "pg-cli-fileops-" },
    );
    const r = await cli(["run", "--repo", repo, "--approve-plan", "--unattended", "Delete the old helper"], env);
    const sessionId = /session (\S+)/.exec(r.stdout)![1];
    const events = await cli(["trace", sessionId, "--jsonl"], { PATCHGATE_DATA_DIR: data });
    const results = events.stdout
      .split("\n")
      .filter((l) => l.includes('"tool_result"') && l.includes("run_command"))
      .join("\n");
    expect(results).toContain("deny:unattended");
    expect(results).toContain("To delete a file use delete_file {path}");
  });
});
