import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import type { SessionEvent } from "../../src/session/events.js";
import type { AppendAt } from "../../src/store/types.js";
import { startFakeOpenAI } from "../fakes/chat/server.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

/**
 * A text-only answer is recorded with the nudge that follows it, in one append. A process killed
 * between the two used to leave the conversation ending on the assistant; the next answer was then
 * stored right after it — two assistant turns in a row, which strict providers refuse (400 "roles
 * must alternate") on every later request, /agent retry included.
 */
test("a crash while recording a text-only answer leaves no two assistant turns in a row", async () => {
  const read = { name: "read_file", arguments: { path: "src/add.js" } };
  const plan = { name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run the tests"] } };
  const server = await startFakeOpenAI([{ content: "Let me think about this first." }, { toolCalls: [read] }, { toolCalls: [plan] }], { provider: "strict" });
  const h = await SessionHarness.create(BUGGY_ADD_REPO);
  try {
    const llm = () => createOpenAIClient({ apiKey: "sk-test", baseURL: server.baseURL, model: "m", sleep: async () => {} });
    // The process dies as the nudge after the text answer is written (a kill -9 at that instant).
    const real = h.store.append.bind(h.store);
    let killed = false;
    h.store.append = async (id: string, events: SessionEvent[], at: AppendAt) => {
      if (!killed && events.some((e) => e.type === "user_message")) {
        killed = true;
        throw new Error("killed");
      }
      return real(id, events, at);
    };
    await expect(h.resume(llm())).rejects.toThrow("killed");
    expect(killed).toBe(true);

    await h.restart();
    expect(await h.resume(llm())).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    const roles = h.ledger.state.conversation.map((m) => m.role);
    expect(roles.some((r, i) => r === "assistant" && roles[i + 1] === "assistant")).toBe(false);
    expect(server.violations).toEqual([]);
  } finally {
    await h.dispose();
    await server.close();
  }
});

/**
 * A ledger written before that fix may already hold the pair. The request is shaped from it on every
 * later call, so the wire must still alternate: the two turns go out as one.
 */
test("a ledger that already holds two assistant turns in a row still makes requests a strict provider accepts", async () => {
  const read = { name: "read_file", arguments: { path: "src/add.js" } };
  const plan = { name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run the tests"] } };
  const server = await startFakeOpenAI([{ toolCalls: [read] }, { toolCalls: [plan] }], { provider: "strict" });
  const h = await SessionHarness.create(BUGGY_ADD_REPO);
  try {
    // What an older runtime left after a kill between a text answer and its nudge, and the next text answer.
    await h.ledger.append({ type: "assistant_message", content: "Let me think about this first.", toolCalls: [] });
    await h.ledger.append({ type: "assistant_message", content: "Reading the file next.", toolCalls: [] });
    await h.restart();
    const llm = createOpenAIClient({ apiKey: "sk-test", baseURL: server.baseURL, model: "m", sleep: async () => {} });
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(server.violations).toEqual([]);
    expect(h.ledger.history.some((e) => e.type === "session_failed")).toBe(false);
  } finally {
    await h.dispose();
    await server.close();
  }
});
