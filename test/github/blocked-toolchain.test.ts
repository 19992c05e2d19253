import type { LLMClient, LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";
import { type Harness } from "../../src/demo/harness.js";
import { ISSUE, STORY_FILES } from "../../src/demo/story.js";
import { Ledger } from "../../src/store/ledger.js";
import { storyHarness } from "./helpers.js";

class CountingModel implements LLMClient {
  readonly model = "counting";
  calls = 0;
  complete(_req: LLMRequest): Promise<LLMResponse> {
    this.calls++;
    return Promise.reject(new Error("the model must not be called"));
  }
}

/** A repository pinning a Rust no host has: the session ends blocked at once, and GitHub shows what to do. */
describe("a pinned toolchain the host lacks, on GitHub", () => {
  let h: Harness;
  const model = new CountingModel();
  beforeAll(async () => {
    h = await storyHarness({ script: [], llm: () => model, files: { ...STORY_FILES, "rust-toolchain.toml": '[toolchain]\nchannel = "1.2.3"\n' } });
  });
  afterAll(() => h.close());

  test("blocked before the first model call: check run action_required, one comment naming what to install", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    expect(model.calls).toBe(0);
    const [summary] = await h.app.deps.store.list();
    const s = (await Ledger.open(h.app.deps.store, summary.id)).state;
    expect(s.phase).toBe("blocked");
    const run = h.github.world.checkRuns[0];
    expect(run).toMatchObject({ status: "completed", conclusion: "action_required" });
    expect(run.output.title).toBe("Patchgate: Blocked: toolchain_missing");
    expect(run.output.summary).toContain("**Outcome:** blocked — `toolchain_missing`: The repository needs toolchains this host does not have: rust 1.2.3 (rust-toolchain.toml): rustup toolchain install 1.2.3");
    expect(run.output.text).toMatch(/toolchains_resolved \| missing: rust 1\.2\.3 \(rust-toolchain\.toml\)/);
    const comments = h.github.world.comments.map((c) => c.body);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatch(/^⛔ The session is blocked \(`toolchain_missing`\): The repository needs toolchains .*rustup toolchain install 1\.2\.3/);
    expect(comments[0]).toContain("`/agent retry` starts again once that is done.");
    expect(h.app.errors).toEqual([]);
  });
});
