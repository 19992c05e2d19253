import { createOpenAIClient } from "../../../src/agent/llm/openai-client.js";
import type { LLMClient } from "../../../src/agent/llm/types.js";
import type { Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, R, storyHarness } from "../../harness/story-helpers.js";

/**
 * A session resumed at boot asks GitHub for its repository by name. When the name now answers for
 * another repository (another id), the resume stops there: nothing is cloned, posted or pushed to it.
 */
let h: Harness;
let calls = 0;
let reached!: () => void;
const died = new Promise<void>((r) => (reached = r));
// The first model call never answers (the process dies in it); later ones reach the fake server.
const llm = (): LLMClient => {
  const inner = createOpenAIClient({ apiKey: "sk-test-dying-model-0123456789", baseURL: h.openai.baseURL, model: "fake-model" });
  return { model: inner.model, complete: (req) => (++calls === 1 ? (reached(), new Promise<never>(() => {})) : inner.complete(req)) };
};
beforeAll(async () => {
  h = await storyHarness({ llm });
});
afterAll(() => h.close());

test("a boot resume that finds the session's name held by another repository id does nothing there", async () => {
  await h.send(
    "issue_comment",
    h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
  );
  await died;
  const [summary] = await h.app.deps.store.list();
  const before = h.github.world.calls.length;
  const comments = h.github.world.comments.length;

  await h.crash(() => Object.assign(h.github.world, { repoId: 5000 }));
  await h.settle();

  expect(callLines(h, before)).toEqual([MINT, `GET ${R}`]);
  expect(h.github.world.comments).toHaveLength(comments);
  expect((await Ledger.open(h.app.deps.store, summary.id)).state.phase).toBe("planning");
});
