import type { LLMClient, LLMRequest, LLMResponse } from "../../../src/agent/llm/types.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";
import { FakeHost } from "../../toolchain/layouts.js";
import { join } from "node:path";

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
    expect(run.output.summary!.split("\n")[0]).toContain(
      "**⛔ Blocked** — a toolchain the repository needs is not installed on the host (`toolchain_missing`): The repository needs toolchains this host does not have: rust 1.2.3 (rust-toolchain.toml): rustup toolchain install 1.2.3",
    );
    expect(run.output.summary).toContain("- **Missing on the host:** rust 1.2.3, asked by `rust-toolchain.toml` — rustup toolchain install 1.2.3");
    expect(run.output.text).toMatch(/toolchains resolved: missing: rust 1\.2\.3 \(rust-toolchain\.toml\)/);
    const comments = h.github.world.comments.map((c) => c.body);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatch(/^⛔ The session is blocked \(`toolchain_missing`\): The repository needs toolchains .*rustup toolchain install 1\.2\.3/);
    expect(comments[0]).toContain("`/agent retry` starts again once that is done.");
    expect(h.app.errors).toEqual([]);
  });
});

/** Blocked means "install it, then retry": once the toolchain is on the host, `/agent retry` gets a session that uses it. */
describe("blocked, then the toolchain is installed and the maintainer retries", () => {
  const STABLE = { name: "stable-x86_64-unknown-linux-gnu", rustc: "1.95.0" };
  const PINNED = { name: "1.96.0-x86_64-unknown-linux-gnu", rustc: "1.96.0" };
  let h: Harness;
  let host: FakeHost;
  beforeAll(async () => {
    host = new FakeHost().rustup([STABLE], STABLE.name);
    h = await storyHarness({ files: { ...STORY_FILES, "rust-toolchain.toml": '[toolchain]\nchannel = "1.96.0"\n' }, sandboxExtras: { host: host.facts() } });
  });
  afterAll(async () => {
    await h.close();
    host.cleanup();
  });

  test("the retry is a new session that resolves again and gets the pinned toolchain", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await h.settle();
    const [blocked] = await h.app.deps.store.list();
    expect((await Ledger.open(h.app.deps.store, blocked.id)).state.blocked?.message).toContain(
      "rust 1.96.0 (rust-toolchain.toml): rustup toolchain install 1.96.0; installed: 1.95.0 (rustup)",
    );
    expect(h.openai.requests).toHaveLength(0);

    host.rustup([PINNED], STABLE.name);
    await h.send("issue_comment", h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent retry", by: "maintainer" }));
    await h.settle();
    const sessions = await h.app.deps.store.list();
    expect(sessions).toHaveLength(2);
    const retried = (await Ledger.open(h.app.deps.store, sessions.find((x) => x.id !== blocked.id)!.id)).state;
    const dir = join(host.home, ".rustup", "toolchains", PINNED.name);
    expect(retried.toolchains).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "rust",
          version: "1.96.0",
          path: join(dir, "bin"),
          binds: [dir],
          how: expect.stringContaining("pinned by rust-toolchain.toml (1.96.0)"),
        }),
      ]),
    );
    expect(retried.phase).toBe("awaiting_plan_approval");
    expect(h.openai.requests.length).toBeGreaterThan(0);
    expect(h.app.errors).toEqual([]);
  });
});
