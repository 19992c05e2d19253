import type { LLMClient, LLMRequest, LLMResponse } from "../../../src/agent/llm/types.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/** A model that never answers: it resolves `called` and then waits for the request's AbortSignal. */
class HangingModel implements LLMClient {
  readonly model = "hanging";
  aborted: unknown = null;
  private signalCalled!: () => void;
  readonly called = new Promise<void>((r) => (this.signalCalled = r));

  complete(req: LLMRequest): Promise<LLMResponse> {
    this.signalCalled();
    return new Promise((_resolve, reject) => {
      req.signal?.addEventListener("abort", () => {
        this.aborted = req.signal?.reason;
        reject(req.signal?.reason);
      });
    });
  }
}

describe("/agent stop", () => {
  let h: Harness;
  const model = new HangingModel();
  beforeAll(async () => {
    h = await storyHarness({ script: [], llm: () => model });
  });
  afterAll(() => h.close());

  test("aborts the in-flight model request and ends the session cancelled, check run saying so", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await model.called; // the session is now inside the model call, holding the issue's lane
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent stop", by: "maintainer" }));
    await h.settle();

    expect((model.aborted as Error).message).toBe("stopped by @maintainer");
    const [summary] = await h.app.deps.store.list();
    const s = (await Ledger.open(h.app.deps.store, summary.id)).state;
    expect(s.phase).toBe("cancelled");
    const run = h.github.world.checkRuns[0];
    expect(run).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect(run.output.summary!.split("\n")[0]).toBe("**🛑 Cancelled** by the runtime: stopped by @\u2060maintainer");
    expect(h.github.world.comments.map((c) => c.body.split("\n")[0])).toEqual(["🛑 The session was cancelled."]);
    expect(h.timeline).toContain("aborted 1 in-flight job(s) for #1");
    expect(h.app.errors).toEqual([]);
  });

  test("`/agent stop` on an ended session says so", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body.split("\n")[0]).toBe("The session had already ended (`cancelled`); nothing to stop.");
  });
});
