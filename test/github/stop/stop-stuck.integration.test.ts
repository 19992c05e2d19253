import type { LLMClient, LLMRequest, LLMResponse } from "../../../src/agent/llm/types.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { settlesWithin } from "../../fakes/special-files.js";
import { storyHarness } from "../../harness/story-helpers.js";
import { sandboxFileAppears } from "../../helpers/sandbox-file-appears.js";

/** Written by the held test run, seen through its sandbox (a run's writes reach the clone when it ends). */
const STARTED = `started-stop-stuck-${process.pid}.txt`;

/** The bound this test puts on a stop: a hang fails it, a slow machine does not come near it. */
const STOP_BOUND_MS = 5_000;

async function sessionState(h: Harness) {
  return (await Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id)).state;
}

/**
 * A test run that leaves a FIFO named build/.gitignore and then hangs. The stop kills the run; the
 * tree hash after it used to block for ever on that FIFO (git opens every .gitignore), holding the
 * session's lane, so the cancellation queued behind it never ran.
 */
describe("/agent stop during a test run that left a FIFO .gitignore", () => {
  let h: Harness;
  beforeAll(async () => {
    // Only once the fix is in: the baseline run on the base tree (at plan approval) ends at once.
    const files = {
      ...STORY_FILES,
      "test.sh": `grep -q "a + b" src/add.js || exit 1\nmkdir -p build && mkfifo build/.gitignore && echo started > ${STARTED} && sleep 1000\n`,
    };
    h = await storyHarness({ files });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
  });
  afterAll(() => h.close());

  test("ends the session cancelled within the bound, check run and comment saying so", async () => {
    const pr = h.github.world.pulls[0];
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent approve", by: "maintainer" }));
    await sandboxFileAppears(STARTED);
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, body: "/agent stop", by: "maintainer" }));
    await settlesWithin("the stopped session", STOP_BOUND_MS, h.settle());

    expect((await sessionState(h)).phase).toBe("cancelled");
    expect(h.github.world.checkRuns.at(-1)).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect(h.github.world.comments.at(-1)!.body.split("\n")[0]).toBe("🛑 The session was cancelled.");
    expect(h.app.errors).toEqual([]);
  });
});

/** A model client that ignores its abort signal: the call never ends, whatever happens. */
class DeafModel implements LLMClient {
  readonly model = "deaf";
  private signalCalled!: () => void;
  readonly called = new Promise<void>((r) => (this.signalCalled = r));
  complete(_req: LLMRequest): Promise<LLMResponse> {
    this.signalCalled();
    return new Promise(() => undefined);
  }
}

describe("/agent stop while the job is stuck in a call that ignores the abort", () => {
  let h: Harness;
  const model = new DeafModel();
  beforeAll(async () => {
    h = await storyHarness({ script: [], llm: () => model });
  });
  afterAll(() => h.close());

  test("the lane gives up on the stuck job and the session ends cancelled within the bound", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await model.called;
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent stop", by: "maintainer" }));
    await settlesWithin("the stopped session", STOP_BOUND_MS, h.settle());

    expect((await sessionState(h)).phase).toBe("cancelled");
    expect(h.github.world.checkRuns[0]).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect(h.timeline).toContain("a job for #1 did not end within 2000 ms of its abort; its lane goes on without it");
    expect(h.app.errors).toEqual([]);
  });
});
