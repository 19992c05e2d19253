import { storyHarness, theCheckRun } from "../harness/story-helpers.js";
import { storySteps } from "../harness/story.js";
import { Ledger } from "../../src/store/ledger.js";
import { readBranch } from "../fakes/git/bare-repo.js";
import { JS_ADD_REPO, SKIPPED_TEST } from "./js-repo.js";

const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const script = [
  {
    toolCalls: [
      { name: "read_file", arguments: { path: "test/add.test.js" } },
      { name: "read_file", arguments: { path: "src/add.js" } },
    ],
  },
  call("submit_plan", { summary: "Make add's test pass.", steps: ["Change the test", "Run the tests"] }),
  call("write_file", { path: "test/add.test.js", content: SKIPPED_TEST }),
  call("run_tests"),
  call("finish", { summary: "The tests pass." }),
  call("write_file", { path: "test/add.test.js", content: JS_ADD_REPO["test/add.test.js"] }),
  call("write_file", { path: "src/add.js", content: FIXED }),
  call("run_tests"),
  call("finish", { summary: "add() adds; the test runs unchanged." }),
];

/**
 * On the fake GitHub: the agent's skip parks finish as a test_integrity request, which the label that
 * approves every write does not approve; a maintainer's `/agent deny` sends it back, and the real fix
 * is what reaches the branch.
 */
test("GitHub: a skipped test is caught before publication; denied by a comment, the agent's real fix is published", async () => {
  const h = await storyHarness({ script, files: JS_ADD_REPO });
  try {
    h.github.world.files.set(".github/patchgate.yml", JS_ADD_REPO[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    await storySteps.approvePlan(h);
    const ledger = async () => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
    let l = await ledger();
    expect(l.state.phase).toBe("awaiting_integrity_approval");
    expect(l.state.integrity?.report.findings.map((f) => f.detector)).toContain("js.skip");
    expect(readBranch(h.bare, "patchgate/issue-1")?.files["test/add.test.js"]).not.toBe(SKIPPED_TEST);
    const checkRun = h.github.world.checkRuns.at(-1);
    expect(JSON.stringify(checkRun)).toContain("waiting for a maintainer");

    const pr = h.github.world.pulls[0];
    // One request comment on the PR, apart from the batch: the finding in words, its diff line fenced, how to decide.
    const asked = h.github.world.comments.filter((c) => c.body.includes("test_integrity request"));
    expect(asked).toHaveLength(1);
    expect(asked[0].issue_number).toBe(pr.number);
    expect(asked[0].body).toContain("`js.skip`");
    expect(asked[0].body).toMatch(/```diff\n\+test\.skip\("adds", \(\) => \{\n```/);
    expect(asked[0].body).toContain("/agent approve integrity");
    expect(asked[0].body).toContain("/agent deny <reason>");
    expect(asked[0].body).toContain("does not approve it");
    const deny = h.payloads.comment({
      number: pr.number,
      pr: true,
      title: pr.title,
      body: "/agent deny fix add() instead of skipping its test",
      by: "maintainer",
    });
    await h.send("issue_comment", deny);
    await h.settle();
    l = await ledger();
    expect(l.state.phase).toBe("done");
    expect(l.state.integrity).toMatchObject({ status: "denied", decidedBy: { login: "maintainer", via: "comment" } });
    const files = readBranch(h.bare, "patchgate/issue-1")!.files;
    expect(files["src/add.js"]).toBe(FIXED);
    expect(files["test/add.test.js"]).toBe(JS_ADD_REPO["test/add.test.js"]);
    // The resume after the denial asks nothing again: still the one request comment.
    expect(h.github.world.comments.filter((c) => c.body.includes("test_integrity request"))).toHaveLength(1);
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);

test("GitHub: an approving review while the request waits approves it, bound to the request then waiting; the skip is published with who approved it", async () => {
  const h = await storyHarness({ script: script.slice(0, 5), files: JS_ADD_REPO });
  try {
    h.github.world.files.set(".github/patchgate.yml", JS_ADD_REPO[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    await storySteps.approvePlan(h);
    const pr = h.github.world.pulls[0];
    await h.send("pull_request_review", h.payloads.review({ pr: pr.number, state: "approved", body: "The skip is intended.", by: "reviewer" }));
    await h.settle();
    const l = await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
    expect(l.state.phase).toBe("done");
    expect(l.state.integrityChecked?.approvedBy).toMatchObject({ login: "reviewer", via: "review" });
    expect(readBranch(h.bare, "patchgate/issue-1")!.files["test/add.test.js"]).toBe(SKIPPED_TEST);
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);

test("GitHub: the check run's Approve tests button decides the request it names, only when pressed by a write-access human", async () => {
  const h = await storyHarness({ script: script.slice(0, 5), files: JS_ADD_REPO });
  try {
    h.github.world.files.set(".github/patchgate.yml", JS_ADD_REPO[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    await storySteps.approvePlan(h);
    const ledger = async () => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);
    const digest = (await ledger()).state.integrity!.digest;
    const run = theCheckRun(h);
    expect(run.actions).toEqual([expect.objectContaining({ label: "Approve tests", identifier: `integrity:${digest.slice(0, 10)}` })]);
    const press = (identifier: string, by: string) => h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier, by }));

    await press(run.actions[0].identifier, "reader");
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body.split("\n")[0]).toBe(
      "Sorry @reader, Patchgate only takes approvals from people with write access to this repository (your role here is `read`). Nothing was changed.",
    );
    expect((await ledger()).state.integrity?.status).toBe("pending");

    await press("integrity:0000000000", "maintainer");
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^That approval is for test_integrity request `0000000000`, but the current one is `[0-9a-f]{12}`/);
    expect((await ledger()).state.integrity?.status).toBe("pending");

    await press(run.actions[0].identifier, "maintainer");
    await h.settle();
    const s = (await ledger()).state;
    expect(s.phase).toBe("done");
    expect(s.integrityChecked).toMatchObject({ digest, approvedBy: { login: "maintainer", via: "check_run" } });
    expect(readBranch(h.bare, "patchgate/issue-1")!.files["test/add.test.js"]).toBe(SKIPPED_TEST);
    expect(theCheckRun(h).actions).toEqual([]);
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);
