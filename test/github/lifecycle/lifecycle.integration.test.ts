import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, R, storyHarness } from "../../harness/story-helpers.js";

/**
 * The app's reach changes under running sessions: a repository is renamed, the app is uninstalled,
 * a repository is taken out of the installation. Sessions are keyed by the repository's id, so a
 * rename loses nothing; an uninstall or a removal cancels what it cuts off, in the ledger.
 */
async function session(h: Harness) {
  const [s] = await h.app.deps.store.list();
  return Ledger.open(h.app.deps.store, s.id);
}

describe("a repository renamed under a session", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("a session started before a rename finishes after it, on the new name", async () => {
    await storySteps.ask(h);
    expect((await session(h)).state.phase).toBe("awaiting_plan_approval");
    const w = h.github.world;
    w.rename("calculator-v2");
    await h.send("repository", h.payloads.repositoryRenamed({ from: "calculator", by: "maintainer" }));
    await h.settle();
    expect(h.timeline).toContain("repository 4711 renamed: octo-org/calculator → octo-org/calculator-v2");

    const from = w.calls.length;
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const s = (await session(h)).state;
    expect(s.phase).toBe("done");
    expect(w.pulls[0].draft).toBe(false);
    expect(readBranch(h.bare, "patchgate/issue-1")!.sha).toBe(s.published!.commit);
    // Everything after the rename went to the new name (the old one is a 404 on this fake GitHub).
    const repoCalls = callLines(h, from).filter((l) => l.includes("/repos/"));
    expect(repoCalls.length).toBeGreaterThan(0);
    expect(repoCalls.filter((l) => !l.includes("/repos/octo-org/calculator-v2/"))).toEqual([]);
    expect(h.app.errors).toEqual([]);
  });

  test("a rename the API does not confirm (another repository has the name) moves nothing", async () => {
    const before = h.timeline.length;
    const forged = h.payloads.repositoryRenamed({ from: "calculator-v2", by: "maintainer" });
    forged.repository.id = 999;
    await h.send("repository", forged);
    await h.settle();
    expect(h.timeline.slice(before).some((l) => /^octo-org\/calculator-v2 is repository 4711 on GitHub, not 999: delivery \S+ ignored$/.test(l))).toBe(true);
  });
});

describe("the app uninstalled under a parked session", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
  });
  afterAll(() => h.close());

  test("a forged installation.deleted while the app is installed cancels nothing", async () => {
    await h.send("installation", h.payloads.installationDeleted({ by: "mallory" }));
    await h.settle();
    expect((await session(h)).state.phase).toBe("awaiting_plan_approval");
    expect(h.timeline.some((l) => /^installation 77 still exists on GitHub: delivery .* ignored$/.test(l))).toBe(true);
  });

  test("uninstall cancels it, visibly in the ledger; GitHub no longer lets the app tell the PR", async () => {
    h.github.world.uninstall();
    await h.send("installation", h.payloads.installationDeleted({ by: "maintainer" }));
    await h.settle();
    const l = await session(h);
    expect(l.state.phase).toBe("cancelled");
    expect(l.history.at(-1)).toMatchObject({
      type: "session_cancelled",
      by: "github",
      reason: "Patchgate was uninstalled from octo-org by @maintainer",
      source: "installation:77:deleted",
    });
    expect(h.timeline).toContain("installation 77 deleted: 1 live session(s) cancelled");
    expect(h.timeline.some((line) => /^session \S+: GitHub refused the app \(.*\); the cancellation is in the ledger$/.test(line))).toBe(true);
    expect(h.app.errors).toEqual([]);
  });
});

describe("a repository removed from the installation under a working session", () => {
  let h: Harness;
  const model = new (class {
    readonly model = "hanging";
    aborted: Error | null = null;
    private reached!: () => void;
    readonly called = new Promise<void>((r) => (this.reached = r));
    complete(req: { signal?: AbortSignal }): Promise<never> {
      this.reached();
      return new Promise((_resolve, reject) => req.signal?.addEventListener("abort", () => reject((this.aborted = req.signal!.reason as Error))));
    }
  })();
  beforeAll(async () => {
    h = await storyHarness({ script: [], llm: () => model as never });
  });
  afterAll(() => h.close());

  test("the model call is aborted and the session cancelled with the reason", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await model.called;
    const from = h.github.world.calls.length;
    h.github.world.removeRepository();
    await h.send("installation_repositories", h.payloads.repositoriesRemoved({ by: "maintainer" }));
    await h.settle();
    const reason = "octo-org/calculator removed from Patchgate's installation by @maintainer";
    expect(model.aborted?.message).toBe(reason);
    const l = await session(h);
    expect(l.state.phase).toBe("cancelled");
    expect(l.history.at(-1)).toMatchObject({ type: "session_cancelled", reason });
    // What the aborted job and the cancellation then tried on the repository was refused: it is out of reach.
    const after = h.github.world.calls.slice(from).filter((c) => c.path.startsWith(`${R}`));
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((c) => c.status < 400)).toEqual([]);
    expect(h.app.errors.every((e) => (e as { status?: number }).status === 404)).toBe(true);
  });
});
