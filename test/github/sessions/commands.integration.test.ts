import { startHarness, type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES, STORY_PERMISSIONS, storyScript, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, R, storyHarness } from "../../harness/story-helpers.js";

describe("repo config, help, status, labels", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS });
  });
  afterEach(() => h.close());

  const last = () => h.github.world.comments.at(-1)!.body.split("\n\n<!--")[0];

  test("an invalid .github/patchgate.yml gets a comment naming the field, and no session", async () => {
    h.github.world.files.set(".github/patchgate.yml", "timeouts:\n  test_seconds: -5\n");
    await h.send("issues", h.payloads.issueOpened({ number: 1, title: ISSUE.title, body: "Broken.\n/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(callLines(h)).toEqual([
      MINT,
      `GET ${R}/issues/1`,
      `GET ${R}/collaborators/maintainer/permission`,
      MINT,
      `POST ${R}/issues/1/reactions`,
      `GET ${R}/contents/.github%2Fpatchgate.yml`,
      `POST ${R}/issues/1/comments`,
    ]);
    expect(last()).toContain("- field `timeouts.test_seconds`: ");
    expect(last()).toContain("no session was started");
    expect(await h.app.deps.store.list()).toEqual([]);
  });

  test("an unknown key is named too", async () => {
    h.github.world.files.set(".github/patchgate.yml", "tests: npm test\n");
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(last()).toContain("- field `tests`: ");
  });

  test("the comment names the line and what is allowed, as the CLI does: a typo, then YAML that does not parse", async () => {
    h.github.world.files.set(".github/patchgate.yml", "test: npm test\nsandbox:\n  max_procs: 4\n");
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(last()).toContain("- field `sandbox.max_procs`: unknown field; allowed here: backend, ");
    expect(last()).toContain("(line 3)");
    h.github.world.files.set(".github/patchgate.yml", "test: npm test\ntest: npm run check\n");
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(last()).toMatch(/- field `\(file\)`: not valid YAML: .*(line 2)/);
    expect(await h.app.deps.store.list()).toEqual([]);
  });

  test("`/agent` alone gets the help text; `/agent status` before any session says how to start", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent", by: "maintainer" }));
    await h.settle();
    expect(last()).toMatch(/^I did not understand that \(no command given\)\.\n\nPatchgate commands \(write access required\):/);
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent status", by: "maintainer" }));
    await h.settle();
    expect(last()).toBe("No Patchgate session for this issue yet. `/agent fix this` starts one.");
  });

  test("label `agent:writes-approved` approves the pending batch and every later write", async () => {
    h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:plan-approved", by: "maintainer" }));
    await h.settle();
    const id = (await h.app.deps.store.list())[0].id;
    expect((await Ledger.open(h.app.deps.store, id)).state.phase).toBe("awaiting_write_approval");
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent status", by: "maintainer" }));
    await h.settle();
    expect(last()).toMatch(
      /^\*\*Patchgate status:\*\* `awaiting_write_approval` · mode `execute` · 3 model calls\nPlan `[0-9a-f]{12}` \(approved\)\nWaiting for approval of batch `[0-9a-f]{12}` \(1 calls\)\./,
    );
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    const s = (await Ledger.open(h.app.deps.store, id)).state;
    expect(s.phase).toBe("done");
    expect(s.autoApproveWrites).toBe(true);
    expect(h.github.world.pulls[0].draft).toBe(false);
    expect(h.app.errors).toEqual([]);
  });

  test("a second `/agent fix this` while a session is live does not start another", async () => {
    h.github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(last()).toBe(
      "A Patchgate session is already working on this (phase `awaiting_plan_approval`). `/agent status` shows where it stands; `/agent stop` cancels it.",
    );
    expect(await h.app.deps.store.list()).toHaveLength(1);
  });
});

describe("the other two ways to start", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await storyHarness();
  });
  afterEach(() => h.close());

  const task = async () => (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state.task;

  test("the `agent` label on an issue, added by a maintainer: 👀 on the issue, a plan on a draft PR", async () => {
    await h.send("issues", h.payloads.issueLabeled({ number: 1, title: ISSUE.title, body: ISSUE.body, label: "agent", by: "maintainer" }));
    await h.settle();
    expect(h.github.world.reactions).toEqual([{ issue_number: 1, content: "eyes", user: "patchgate[bot]" }]);
    expect(h.github.world.pulls.map((p) => [p.number, p.draft])).toEqual([[2, true]]);
    expect(await task()).toEqual({
      title: ISSUE.title,
      body: "`add(2, 3)` returns -1.",
      source: {
        kind: "github",
        repo: "octo-org/calculator",
        issueNumber: 1,
        requester: "maintainer",
        requesterId: h.github.world.user("maintainer").id,
        installationId: 77,
        repoId: 4711,
        trigger: "label-event:1003",
      },
    });
  });

  test("an issue opened with `/agent <task>` in its body starts with that instruction", async () => {
    await h.send(
      "issues",
      h.payloads.issueOpened({ number: 1, title: ISSUE.title, body: "Math is off.\n\n/agent fix add and keep it tiny", by: "maintainer" }),
    );
    await h.settle();
    expect((await task()).body).toBe("Instruction from @maintainer: fix add and keep it tiny\n\nMath is off.\n\n/agent fix add and keep it tiny");
    expect(h.github.world.pulls).toHaveLength(1);
    expect(h.app.errors).toEqual([]);
  });
});
