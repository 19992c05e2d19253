import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES, storySteps } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * `approvals: {plan: not_requester, writes: not_requester}`: the maintainer who asked cannot be the one
 * who approves, by any route (comment, label, review); another write-access human can. Denying stays open.
 */
const CONFIG = "test: sh test.sh\napprovals: { plan: not_requester, writes: not_requester }\n";

describe("the requester cannot be the only approver", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({ files: { ...STORY_FILES, ".github/patchgate.yml": CONFIG } });
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    await storySteps.ask(h); // asked by @maintainer
  });
  afterAll(() => h.close());

  const phase = async () => (await h.app.deps.store.list())[0].phase;
  const say = async (body: string, by: string) => {
    await h.send("issue_comment", h.payloads.comment({ number: 2, pr: true, title: h.github.world.pulls[0].title, body, by }));
    await h.settle();
  };

  test("the requester's `/agent approve` and label do not approve the plan; a reviewer's review does", async () => {
    await say("/agent approve", "maintainer");
    expect(h.github.world.comments.at(-1)!.body).toMatch(
      /^@maintainer asked for this session, so someone else with write access has to approve the plan \(`\.github\/patchgate\.yml`: `approvals\.plan: not_requester`\)\. Nothing was approved\./,
    );
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:plan-approved", by: "maintainer" }));
    await h.settle();
    expect(await phase()).toBe("awaiting_plan_approval");
    await storySteps.approvePlan(h); // by @reviewer
    expect(await phase()).toBe("awaiting_write_approval");
  });

  test("the requester cannot approve the writes, by comment or label; another maintainer can", async () => {
    await say("/agent approve", "maintainer");
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^@maintainer asked for this session, so someone else with write access has to approve these writes/);
    await h.send("pull_request", h.payloads.prLabeled({ pr: 2, label: "agent:writes-approved", by: "maintainer" }));
    await h.settle();
    expect(await phase()).toBe("awaiting_write_approval");
    await say("/agent approve", "reviewer");
    expect(await phase()).toBe("done");
    void ISSUE;
  });
});
