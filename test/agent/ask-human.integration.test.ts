import { answerQuestion } from "../../src/agent/approvals.js";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const ask = (question: string) => ({ toolCalls: [{ name: "ask_human", arguments: { question } }] });
const plan = { toolCalls: [{ name: "submit_plan", arguments: { summary: "fix", steps: ["fix add"] } }] };
const maintainer = { login: "maintainer", via: "cli" as const };

describe("ask_human", () => {
  let h: SessionHarness;
  afterEach(() => h.dispose());

  test("parks in awaiting_answer; the answer resumes planning; past limits.max_questions the tool refuses", async () => {
    h = await SessionHarness.create({ ...BUGGY_ADD_REPO, ".github/patchgate.yml": "test: sh test.sh\nlimits: { max_questions: 1 }\n" });
    const llm = new ScriptedLLM([ask("Strings too?"), ask("And floats?"), plan]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_answer" });
    await answerQuestion(h.ledger, maintainer, "Numbers only.");
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual(["ask_human:ok", "ask_human:question_limit", "submit_plan:ok"]);
    expect(h.ledger.state.questions).toEqual([{ question: "Strings too?", answer: "Numbers only.", by: "maintainer" }]);
    expect(llm.requests[1].messages.some((m) => m.role === "user" && String(m.content).includes("<answer>\nNumbers only.\n</answer>"))).toBe(true);
  });

  test("an unattended run has nobody to ask: the tool is offered but refuses", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO, { unattended: true });
    const llm = new ScriptedLLM([ask("Strings too?"), plan]);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(h.results().map((r) => `${r.tool}:${r.ok ? "ok" : r.code}`)).toEqual(["ask_human:no_human", "submit_plan:ok"]);
    expect(llm.requests[0].tools?.map((t) => t.name)).toContain("ask_human");
  });

  test("an answer with no question waiting is refused by the ledger", async () => {
    h = await SessionHarness.create(BUGGY_ADD_REPO);
    await expect(answerQuestion(h.ledger, maintainer, "hello")).rejects.toThrow(/allowed only in awaiting_answer/);
  });
});
