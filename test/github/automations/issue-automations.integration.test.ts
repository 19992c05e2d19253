import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES } from "../../harness/story.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";
import { Ledger } from "../../../src/store/ledger.js";

/**
 * Sessions started by `issue_labeled` and `issue_opened` automations declared on the default branch:
 * one per event a write-access human caused, none for a redelivery, a reader's label or a bot's issue
 * (and nothing said to them); the plan approved by the automation in words that name it, the writes
 * still waiting for a person.
 */
const CONFIG = `${STORY_FILES[".github/patchgate.yml"]}automations:
  - name: triage
    on: { issue_labeled: { label: bug } }
    approve_plan: auto
  - name: fresh
    on: { issue_opened: { labels: [needs-fix] } }
`;
const CONFIG_COMMIT = "c0ffee".padEnd(40, "0");

async function sessions(h: Harness): Promise<Ledger[]> {
  return Promise.all((await h.app.deps.store.list()).map((s) => Ledger.open(h.app.deps.store, s.id)));
}

describe("issue automations", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    h.github.world.permissions.set("dependabot[bot]", "write");
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    h.github.world.fileCommits.push({
      sha: CONFIG_COMMIT,
      paths: [".github/patchgate.yml"],
      author: h.github.world.user("alice"),
      message: "automations",
      date: "2026-01-01T00:00:00Z",
    });
  });
  afterAll(() => h.close());

  test("a reader's label and a bot's issue start nothing, and nothing is said to them", async () => {
    await h.send("issues", h.payloads.issueLabeled({ number: 7, title: "T", body: "b", label: "bug", by: "reader" }));
    await h.send("issues", h.payloads.issueOpened({ number: 8, title: "T", body: "b", labels: ["needs-fix"], by: "dependabot[bot]" }));
    await h.send("issues", h.payloads.issueOpened({ number: 9, title: "T", body: "b", labels: ["question"], by: "maintainer" }));
    await h.settle();
    expect(await sessions(h)).toEqual([]);
    expect(h.github.world.comments).toEqual([]);
    expect(h.github.world.reactions).toEqual([]);
  });

  test("a maintainer's label starts one session, recorded as the automation's; a redelivery starts none", async () => {
    const payload = h.payloads.issueLabeled({ number: ISSUE.number, title: ISSUE.title, body: ISSUE.body, label: "bug", by: "maintainer" });
    const first = await h.send("issues", payload);
    await h.settle();
    await h.send("issues", payload, first.id);
    await h.send("issues", payload);
    await h.settle();
    const all = await sessions(h);
    expect(all).toHaveLength(1);
    expect(all[0].state.task.source).toMatchObject({
      issueNumber: ISSUE.number,
      requester: "maintainer",
      automation: { name: "triage", on: "issue_labeled bug", configCommit: CONFIG_COMMIT, lastChangedBy: "alice", approvePlan: true },
    });
  });

  test("the automation approves the plan in words that name it and the file, never a person; the write waits for a person", async () => {
    const [s] = await sessions(h);
    expect(s.state.phase).toBe("awaiting_write_approval");
    const approved = s.history.filter((e) => e.type === "plan_approved");
    expect(approved.map((e) => e.type === "plan_approved" && e.by)).toEqual([
      {
        login: "automation:triage",
        via: "automation",
        source: `automation:triage@${CONFIG_COMMIT}`,
        how: `automation triage in .github/patchgate.yml@${CONFIG_COMMIT}, last changed by @alice`,
      },
    ]);
    const run = theCheckRun(h);
    // Posted text is made inert: a word joiner after each `@` keeps it from notifying anyone.
    const summary = `${run.output.summary ?? ""}\n${run.output.text ?? ""}`.replaceAll("@\u2060", "@");
    expect(summary).toContain(`**approved** by automation triage in .github/patchgate.yml@${CONFIG_COMMIT}, last changed by @alice`);
    expect(summary).toContain(
      "Started by automation `triage` (`issue_labeled bug`) for @maintainer, declared in `.github/patchgate.yml@c0ffee0`, last changed by @alice; it approves the plan (`approve_plan: auto`), writes wait for a person",
    );
  });

  test("a maintainer's issue opened with the automation's label starts one session", async () => {
    await h.send("issues", h.payloads.issueOpened({ number: 12, title: "Another", body: "b", labels: ["needs-fix"], by: "maintainer" }));
    await h.settle();
    const fresh = (await sessions(h)).filter((s) => s.state.task.source.issueNumber === 12);
    expect(fresh.map((s) => s.state.task.source.automation?.name)).toEqual(["fresh"]);
    expect(h.github.world.reactions).toContainEqual({ issue_number: 12, content: "eyes", user: h.github.world.botLogin });
  });
});
