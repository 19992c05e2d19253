import { rmSync } from "node:fs";
import { createOpenAIClient } from "../../../src/agent/llm/openai-client.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../../../src/agent/llm/types.js";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { callLines, MINT, R, signedResultPush, theCheckRun, storyHarness } from "../../harness/story-helpers.js";

/**
 * The model answers from the fake OpenAI server, except model call number `dieAt`, which never
 * answers: the process "dies" inside it. That call never reaches the server, so the script's turn
 * is still there for the process that resumes the session.
 */
class DyingModel {
  private calls = 0;
  private reached!: () => void;
  readonly died = new Promise<void>((resolve) => (this.reached = resolve));

  constructor(
    private readonly dieAt: number,
    private readonly baseURL: () => string,
  ) {}

  readonly client = (): LLMClient => {
    const inner = createOpenAIClient({ apiKey: "sk-test-dying-model-0123456789", baseURL: this.baseURL(), model: "fake-model" });
    return {
      model: inner.model,
      complete: (req: LLMRequest): Promise<LLMResponse> => {
        if (++this.calls !== this.dieAt) return inner.complete(req);
        this.reached();
        return new Promise<never>(() => {});
      },
    };
  };
}

const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

describe.each([
  ["the clone survives on disk", false],
  ["the clone is gone too: rebuilt from the base commit and the ledger", true],
])("the process dies while the session is executing; %s", (_name, dropClone) => {
  let h: Harness;
  // Calls 1–2 plan, 3 proposes the edit; after `/agent approve`, call 4 (run the tests) is where it dies.
  const model = new DyingModel(4, () => h.openai.baseURL);
  beforeAll(async () => {
    h = await storyHarness({ llm: model.client });
  });
  afterAll(() => h.close());

  test("the new app resumes it at boot and it finishes, with no webhook after the restart", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const pr = h.github.world.pulls[0];
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    await model.died;
    const [summary] = await h.app.deps.store.list();
    expect(summary.phase).toBe("executing");
    const planRun = theCheckRun(h);
    const workspaces = h.app.deps.workspacesDir;
    const before = h.github.world.calls.length;

    // The clone goes while no process runs: the new app's resume job may start before `crash` returns.
    await h.crash(() => dropClone && rmSync(workspaces, { recursive: true, force: true }));
    await h.settle();

    const w = h.github.world;
    const head = readBranch(h.bare, "patchgate/issue-1")!;
    expect(callLines(h, before)).toEqual([
      MINT, // the installation's token for REST, minted by the new process (no permission check: no webhook)
      `GET ${R}`, // the default branch, and proof the installation still sees the repository
      MINT, // the job's git token
      ...(dropClone ? ["GIT upload-pack /octo-org/calculator.git", "GIT upload-pack /octo-org/calculator.git"] : []),
      "GET /app",
      "GET /users/patchgate%5Bbot%5D",
      ...signedResultPush(),
      `POST ${R}/check-runs`,
      `PATCH ${R}/check-runs/${planRun.id}`,
      `PATCH ${R}/pulls/2`,
      "POST /graphql",
      `PATCH ${R}/check-runs/${w.checkRuns[2].id}`,
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `POST ${R}/issues/1/comments`,
      // The session's threads read once more for copies a killed process's late POST left (none here).
      `GET ${R}/issues/1/comments?per_page=100&page=1`,
      `GET ${R}/issues/2/comments?per_page=100&page=1`,
    ]);
    const s = (await Ledger.open(h.app.deps.store, summary.id)).state;
    expect(s.phase).toBe("done");
    expect(s.published?.commit).toBe(head.sha);
    expect(head.files["src/add.js"]).toBe(FIXED);
    expect(w.pulls).toHaveLength(1);
    expect(w.pulls[0]).toMatchObject({ number: 2, draft: false });
    expect(theCheckRun(h)).toMatchObject({ head_sha: head.sha, status: "completed", conclusion: "success" });
    expect(w.checkRuns[1]).toMatchObject({ id: planRun.id, conclusion: "neutral" });
    expect(w.comments.at(-1)!.body.split("\n")[0]).toBe(`✅ Done: ${w.pulls[0].html_url} is ready for review.`);
    expect(h.openai.remaining()).toBe(0);
    expect(h.openai.requests).toHaveLength(5); // the dying call never reached the model: no turn lost, none repeated
    expect(h.timeline).toContain(`session ${summary.id} was executing when the app stopped → queued to resume`);
    expect(h.app.errors).toEqual([]);
  });
});

describe("the process dies while the session is planning", () => {
  let h: Harness;
  const model = new DyingModel(2, () => h.openai.baseURL);
  beforeAll(async () => {
    h = await storyHarness({ llm: model.client });
  });
  afterAll(() => h.close());

  test("the new app resumes it at boot: the plan reaches a draft PR against the default branch, then it waits", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await model.died;
    expect((await h.app.deps.store.list())[0].phase).toBe("planning");
    expect(h.github.world.pulls).toEqual([]);

    await h.crash();
    await h.settle();

    const w = h.github.world;
    const [summary] = await h.app.deps.store.list();
    expect(summary.phase).toBe("awaiting_plan_approval");
    expect(w.pulls).toHaveLength(1);
    expect(w.pulls[0]).toMatchObject({ draft: true, base: { ref: "main" }, head: { ref: "patchgate/issue-1" } });
    expect(theCheckRun(h)).toMatchObject({ status: "in_progress", head_sha: readBranch(h.bare, "patchgate/issue-1")!.sha });
    expect(w.checkRuns.map((c) => c.conclusion)).toEqual(["neutral", null]);
    expect(h.openai.remaining()).toBe(3);
    expect(h.app.errors).toEqual([]);
  });
});
