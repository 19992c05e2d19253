import { execFileSync } from "node:child_process";
import { readBranch } from "../fakes/git/bare-repo.js";
import { ISSUE } from "../harness/story.js";
import { CrashWorld } from "../helpers/crash-world.js";

/** Long enough that git sees the moved file with its one-line fix as a rename. */
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
const TESTS =
  'node --input-type=module -e \'import { add } from "./lib/add.js"; if (add(2, 3) !== 5) { console.log("FAIL"); process.exit(1); } console.log("ok");\'\n';
const SCRIPT = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "Move add() to lib/ and fix it.", steps: ["Move", "Fix the operator", "Test"] } }] },
  {
    toolCalls: [
      { name: "move_file", arguments: { from: "src/add.js", to: "lib/add.js" } },
      { name: "delete_file", arguments: { path: "src/old-helper.js" } },
    ],
  },
  { toolCalls: [{ name: "edit_file", arguments: { path: "lib/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add() lives in lib/ and adds." } }] },
];
const BRANCH = "patchgate/issue-1";

/**
 * On the GitHub App: the rename and the delete wait in one write batch, whose comment lists both ends
 * of the move; a maintainer approves it. The process is killed -9 after they are recorded, while the
 * signed commit is being made; the next process publishes exactly once: one commit, R and D.
 */
describe("delete_file and move_file through a write batch on the GitHub App, across kill -9", () => {
  let c: CrashWorld;
  beforeAll(async () => {
    c = await CrashWorld.create({ files: { "src/add.js": ADD_JS, "src/old-helper.js": "export const unused = true;\n", "test.sh": TESTS }, script: SCRIPT });
  });
  afterAll(() => c.close());

  test("the batch approved, the process killed before the commit, the rename and the delete published once", async () => {
    const comment = (number: number, body: string, pr = true) =>
      c.payloads.comment({ number, pr, title: ISSUE.title, issueBody: ISSUE.body, body, by: "maintainer" });
    await c.done((await c.send("issue_comment", comment(ISSUE.number, "/agent fix this", false))).id);
    const pr = c.github.world.pulls[0]!;
    await c.done((await c.send("pull_request_review", c.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }))).id);

    const batch = c.github.world.comments.filter((m) => m.body.includes("wants to do these 2 things")).at(-1)!;
    expect(batch.body).toContain("rename src/add.js → lib/add.js");
    expect(batch.body).toContain("delete src/old-helper.js");
    for (const p of ["lib/add.js", "src/add.js", "src/old-helper.js"]) expect(batch.body).toContain(p);
    await c.done((await c.send("issue_comment", comment(pr.number, "/agent approve"))).id);
    const types = (await c.events()).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["file_moved", "file_deleted"]));

    // The edit's batch: approved, then the session tests, finishes and makes its commit, where it waits.
    const hold = c.holdNext("POST", "/repos/octo-org/calculator/git/trees");
    await c.send("issue_comment", comment(pr.number, "/agent approve"));
    await hold.reached;
    await c.app.kill9();
    expect(readBranch(c.bare, BRANCH)?.files["lib/add.js"]).toBeUndefined();
    hold.release();

    await c.start();
    expect(await c.app.settle()).toBe("errors=0");
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", c.bare, ...args], { encoding: "utf8" }).trim();
    const commits = git("rev-list", `main..${BRANCH}`).split("\n");
    const published = commits.filter((sha) => git("diff-tree", "--no-commit-id", "--name-only", "-r", sha) !== "");
    expect(published).toHaveLength(1);
    expect(git("diff", "--name-status", "-M", "main", BRANCH).split("\n")).toEqual([
      expect.stringMatching(/^R09\d\tsrc\/add\.js\tlib\/add\.js$/),
      "D\tsrc/old-helper.js",
    ]);
    expect(readBranch(c.bare, BRANCH)!.files["lib/add.js"]).toBe(ADD_JS.replace("a - b", "a + b"));
    expect(c.github.world.comments.filter((m) => m.body.includes(":done -->"))).toHaveLength(1);
    const events = await c.events();
    expect(events.filter((e) => e.type === "file_moved")).toHaveLength(1);
    expect(events.filter((e) => e.type === "published")).toHaveLength(1);
    const shown = c.github.world.checkRuns.map((r) => `${r.output.summary ?? ""}\n${r.output.text ?? ""}`).join("\n");
    expect(shown).toContain("| `src/add.js` → `lib/add.js` | renamed |");
    expect(shown).toContain("| `src/old-helper.js` | deleted |");
    expect(shown).toContain("`move_file` `src/add.js → lib/add.js`, `delete_file` `src/old-helper.js`");
    expect(shown).toContain("rename <code>src/add.js</code> → <code>lib/add.js</code>");
    expect(c.openai.violations).toEqual([]);
  }, 240_000);
});
