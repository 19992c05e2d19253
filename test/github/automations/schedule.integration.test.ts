import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES } from "../../harness/story.js";
import { outage, storyHarness } from "../../harness/story-helpers.js";
import { Ledger } from "../../../src/store/ledger.js";
import { parseRepoConfig } from "../../../src/config/load-repo-config.js";
import { knownSchedules, rememberSchedules } from "../../../src/github/session-work/schedule-registry.js";

/**
 * Scheduled automations on the fake GitHub and a SQLite store, on a clock the test moves: each due
 * time fires once however many passes look, an owner without write access starts nothing, and a
 * firing missed while the app was down runs once at start — restarted twice, still once.
 */
const CONFIG = `${STORY_FILES[".github/patchgate.yml"]}automations:
  - name: hourly
    on: { schedule: { cron: "0 * * * *", task: "Update the lockfile", owner: maintainer } }
  - name: readers-hour
    on: { schedule: { cron: "0 * * * *", task: "Anything", owner: reader } }
  - name: daily
    on: { schedule: { cron: "30 12 * * *", task: "Refresh the docs", owner: maintainer } }
`;
const CONFIG_COMMIT = "5c4ed0".padEnd(40, "0");

describe("scheduled automations", () => {
  let h: Harness;
  let now = new Date("2026-03-02T05:58:00Z");
  let pass: (() => Promise<void>) | null = null;
  /** What the app's timer would do at `at`: one pass, then every job it queued, to the end. */
  async function passAt(at: string): Promise<void> {
    now = new Date(at);
    await pass!();
    await h.settle();
  }
  const firings = (name: string) => h.timeline.filter((l) => l.startsWith(`automation ${name} fires`));
  async function sessionsOf(name: string): Promise<Ledger[]> {
    const all = await Promise.all((await h.app.deps.store.list()).map((s) => Ledger.open(h.app.deps.store, s.id)));
    return all.filter((l) => l.state.task.source.automation?.name === name);
  }
  const runIssues = () => [...h.github.world.issues.values()].filter((i) => i.title.startsWith("Patchgate: "));

  beforeAll(async () => {
    h = await storyHarness({ schedules: { now: () => now, every: (p) => void (pass = p) } });
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    h.github.world.fileCommits.push({
      sha: CONFIG_COMMIT,
      paths: [".github/patchgate.yml"],
      author: h.github.world.user("alice"),
      message: "schedules",
      date: "2026-01-01T00:00:00Z",
    });
    // What a session's start records when it reads this config (./start.ts): the schedules are known from 05:58.
    const parsed = parseRepoConfig(CONFIG);
    if (!parsed.ok) throw new Error("the test's config is invalid");
    const w = h.github.world;
    const repo = { id: w.repoId, owner: w.owner, repo: w.repo, defaultBranch: w.defaultBranch, installationId: 77 };
    await rememberSchedules(h.app.deps.store, repo, parsed.config.automations ?? [], now);
  });
  afterAll(() => h.close());

  test("nothing fires before the first due time", async () => {
    await passAt("2026-03-02T05:59:30Z");
    expect(await sessionsOf("hourly")).toEqual([]);
    expect(runIssues()).toEqual([]);
  });

  test("a due time fires once, on an issue the app opens, for the owner; a duplicate or later pass in the period starts nothing", async () => {
    now = new Date("2026-03-02T06:00:20Z");
    // Two passes at once, as two timers would: the due time is claimed once.
    await Promise.all([pass!(), pass!()]);
    await h.settle();
    await passAt("2026-03-02T06:00:40Z");
    await passAt("2026-03-02T06:59:59Z");
    const runs = await sessionsOf("hourly");
    expect(firings("hourly")).toHaveLength(1);
    expect(runs).toHaveLength(1);
    expect(runIssues().map((i) => [i.title, i.user.login])).toEqual([["Patchgate: hourly", h.github.world.botLogin]]);
    expect(runs[0].state.task.source).toMatchObject({
      issueNumber: runIssues()[0].number,
      requester: "maintainer",
      trigger: "schedule:hourly@2026-03-02T06:00:00.000Z",
      automation: { name: "hourly", on: "schedule 0 * * * *", configCommit: CONFIG_COMMIT, lastChangedBy: "alice", approvePlan: false },
    });
    expect(runs[0].state.task.body).toContain("Update the lockfile");
  });

  test("an owner without write access starts nothing, each time it is due", async () => {
    expect(await sessionsOf("readers-hour")).toEqual([]);
    expect(h.timeline.filter((l) => l.includes("schedule readers-hour: @reader has no write access"))).toHaveLength(1);
  });

  test("firings missed while the app was down run once at start, on the same issue; a second restart runs none", async () => {
    const [first] = await sessionsOf("hourly");
    await h.send("issue_comment", h.payloads.comment({ number: first.state.task.source.issueNumber!, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    await h.restart();
    await passAt("2026-03-02T09:30:00Z");
    await h.restart();
    await passAt("2026-03-02T09:45:00Z");
    const runs = await sessionsOf("hourly");
    expect(runs.map((r) => r.state.task.source.trigger).sort()).toEqual([
      "schedule:hourly@2026-03-02T06:00:00.000Z",
      "schedule:hourly@2026-03-02T09:00:00.000Z",
    ]);
    expect(firings("hourly")).toHaveLength(2);
    expect(runIssues()).toHaveLength(1);
    expect(new Set(runs.map((r) => r.state.task.source.issueNumber))).toEqual(new Set([runIssues()[0].number]));
  });

  test("a firing that GitHub failed is tried again, after a restart too, and its run starts once", async () => {
    await passAt("2026-03-02T12:05:00Z");
    outage(h, "POST", `/repos/${h.github.world.owner}/${h.github.world.repo}/issues`, 502);
    await passAt("2026-03-02T12:30:10Z");
    expect(await sessionsOf("daily")).toEqual([]);
    await h.restart();
    await passAt("2026-03-02T12:31:00Z");
    await passAt("2026-03-02T12:32:00Z");
    const runs = await sessionsOf("daily");
    expect(runs.map((r) => r.state.task.source.trigger)).toEqual(["schedule:daily@2026-03-02T12:30:00.000Z"]);
    expect(firings("daily")).toHaveLength(1);
    expect(runIssues().filter((i) => i.title === "Patchgate: daily")).toHaveLength(1);
  });
});

describe("which repositories have schedules", () => {
  let h: Harness;
  let now = new Date("2026-03-02T05:10:00Z");
  let pass: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    h = await storyHarness({ schedules: { now: () => now, every: (p) => void (pass = p) } });
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    h.github.world.fileCommits.push({
      sha: CONFIG_COMMIT,
      paths: [".github/patchgate.yml"],
      author: h.github.world.user("alice"),
      message: "s",
      date: "2026-01-01T00:00:00Z",
    });
  });
  afterAll(() => h.close());

  test("a repository is learnt when a session's start reads its config, and fires from then on", async () => {
    await pass!();
    await h.settle();
    expect(await knownSchedules(h.app.deps.store)).toEqual([]);
    await h.send(
      "issue_comment",
      h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    await h.settle();
    const w = h.github.world;
    expect(await knownSchedules(h.app.deps.store)).toEqual([
      {
        installationId: 77,
        repoId: w.repoId,
        owner: w.owner,
        repo: w.repo,
        defaultBranch: w.defaultBranch,
        schedules: [
          { name: "hourly", cron: "0 * * * *" },
          { name: "readers-hour", cron: "0 * * * *" },
          { name: "daily", cron: "30 12 * * *" },
        ],
      },
    ]);
    now = new Date("2026-03-02T06:00:05Z");
    await pass!();
    await h.settle();
    expect(h.timeline.filter((l) => l.startsWith("automation hourly fires (due 2026-03-02T06:00:00.000Z)"))).toHaveLength(1);
  });

  test("a schedule first read at a late firing counts from when it was read, not from the firing's due time", async () => {
    h.github.world.files.set(
      ".github/patchgate.yml",
      `${CONFIG}  - name: quarter-past
    on: { schedule: { cron: "15 * * * *", task: "Anything", owner: maintainer } }
`,
    );
    // 07:00 and 08:00 were missed: the catch-up fires 08:00 at 08:40 and reads the config that now declares quarter-past.
    now = new Date("2026-03-02T08:40:00Z");
    await pass!();
    await h.settle();
    expect(h.timeline.filter((l) => l.startsWith("automation hourly fires (due 2026-03-02T08:00:00.000Z)"))).toHaveLength(1);
    // 08:15 was before anyone knew of quarter-past: never missed, never fired.
    now = new Date("2026-03-02T08:41:00Z");
    await pass!();
    await h.settle();
    expect(h.timeline.filter((l) => l.startsWith("automation quarter-past fires"))).toEqual([]);
    now = new Date("2026-03-02T09:15:30Z");
    await pass!();
    await h.settle();
    expect(h.timeline.filter((l) => l.startsWith("automation quarter-past fires"))).toEqual([expect.stringContaining("(due 2026-03-02T09:15:00.000Z)")]);
  });
});
