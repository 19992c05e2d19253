import { readBranch } from "../../fakes/git/bare-repo.js";
import type { Harness } from "../../harness/harness.js";
import { storySteps } from "../../harness/story.js";
import type { SessionEvent } from "../../../src/session/events.js";
import { LeaseLostError } from "../../../src/store/fence.js";
import type { AppendAt } from "../../../src/store/types.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * What Patchgate is about to put on a branch is written to the ledger before the ref moves, and that
 * write is fenced: a worker that lost the session (another one holds its lane now) fails there and
 * leaves the branch as it was, instead of moving a ref under a lease that is no longer its own.
 */
const BRANCH = "patchgate/issue-1";

describe("a worker that lost its lease while publishing the result", () => {
  let h: Harness;
  let planHead: string;
  let refCalls: number;
  beforeAll(async () => {
    h = await storyHarness();
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    planHead = readBranch(h.bare, BRANCH)!.sha;
    refCalls = h.github.world.calls.filter((c) => c.path.includes("/git/refs")).length;
    const store = h.app.deps.store;
    const real = store.append.bind(store);
    store.append = async (id: string, events: SessionEvent[], at: AppendAt) => {
      if (events.some((e) => e.type === "branch_push_intended")) throw new LeaseLostError("octo-org/calculator#1");
      return real(id, events, at);
    };
    await storySteps.approveWrites(h);
  });
  afterAll(() => h.close());

  test("never moves the branch: GitHub's ref is untouched and the ledger records no push", async () => {
    expect(readBranch(h.bare, BRANCH)!.sha).toBe(planHead);
    expect(h.github.world.calls.filter((c) => c.path.includes("/git/refs")).length).toBe(refCalls);
    const ledger = await h.app.deps.store.load((await h.app.deps.store.list())[0].id);
    expect(ledger.filter((e) => e.type === "branch_pushed")).toHaveLength(1); // the plan's
    expect(ledger.some((e) => e.type === "published")).toBe(false);
  });
});
