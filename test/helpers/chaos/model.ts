import type { LLMRequest } from "../../../src/agent/llm/types.js";
import type { Message } from "../../../src/session/messages.js";
import type { FakeStep, FakeTurn } from "../../fakes/chat/turns.js";
import { toolResultOf } from "../../fakes/chat/turns.js";

/**
 * The chaos test's model: each answer is decided from the conversation it is sent, never from how
 * many requests came before. A worker killed while it waited for an answer recorded nothing, so the
 * worker that takes the session over asks again with the same conversation, and gets the same
 * answer; a call answered "interrupted" is made again. One model serves all the sessions at once:
 * the issue's title names its number.
 */
export const chaosTitle = (issue: number) => `add() subtracts (chaos ${issue})`;
const issueOf = (messages: Message[]): number => {
  const task = messages.find((m) => m.role === "user" && /\(chaos (\d+)\)/.test(m.content));
  return task ? Number(/\(chaos (\d+)\)/.exec(task.content as string)![1]) : 0;
};

type Done = { name: string; ok: boolean; code: string | null; data: Record<string, unknown> | null };

/** The tool calls of the conversation with their results, in order; `executing` once the plan was approved. */
function history(messages: Message[]): { calls: Done[]; executing: boolean } {
  const results = new Map<string, { ok: boolean; data?: Record<string, unknown>; error?: { code: string } }>();
  for (const m of messages) if (m.role === "tool") results.set(m.toolCallId, toolResultOf(m) as { ok: boolean });
  let calls: Done[] = [];
  let executing = false;
  for (const m of messages) {
    if (m.role === "user" && m.content.startsWith("The plan was approved")) {
      executing = true;
      calls = []; // what counts in execute mode is what happened since
    }
    if (m.role !== "assistant") continue;
    for (const c of m.toolCalls) {
      const r = results.get(c.id);
      calls.push({ name: c.name, ok: r?.ok ?? false, code: r ? (r.error?.code ?? null) : "unanswered", data: r?.data ?? null });
    }
  }
  return { calls, executing };
}

const call = (name: string, args: unknown) => ({ name, arguments: args });
const todos = (status: string) => ({ todos: [{ id: "1", content: "Fix add()", status }] });
const READ = call("read_file", { path: "src/add.js" });
const EDIT = call("edit_file", { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] });
const TEST_SCRIPT_ARGV = ["sh", "test.sh"];

/** The next answer for a conversation. `command`: this issue runs the test script as a command too. */
function nextAnswer(messages: Message[], command: boolean): FakeTurn {
  const { calls, executing } = history(messages);
  const okCall = (name: string) => calls.some((c) => c.name === name && c.ok);
  const last = calls.at(-1);
  if (!executing) {
    return okCall("read_file")
      ? {
          toolCalls: [
            call("update_todos", todos("pending")),
            call("submit_plan", { summary: "add() subtracts; make it add.", steps: ["Fix src/add.js", "Run sh test.sh"] }),
          ],
        }
      : { toolCalls: [READ] };
  }
  if (!okCall("edit_file")) return { toolCalls: [last?.name === "edit_file" && !last.ok ? READ : EDIT] };
  if (command && !okCall("run_command")) return { toolCalls: [call("run_command", { argv: TEST_SCRIPT_ARGV })] };
  if (!calls.some((c) => c.name === "run_tests" && c.ok && c.data?.passed === true)) return { toolCalls: [call("run_tests", {})] };
  if (last?.name === "finish") return { content: `finish was refused (${last.code}); stopping here` };
  return { toolCalls: [call("update_todos", todos("completed")), call("finish", { summary: "add() adds; sh test.sh passes." })] };
}

export interface ChaosModelHooks {
  /** Issues that also run the test script through run_command. */
  command: ReadonlySet<number>;
  /** Asked before each answer: true holds this request unanswered (its worker is to be killed). */
  hold(issue: number, executing: boolean): boolean;
  /** Told which tool the answer calls, before it is sent (to arm a hold the tool will meet). */
  answering(issue: number, tool: string): void;
}

/** As the fake provider's script: the same step for every request, as many as any run needs. */
export function chaosModel(hooks: () => ChaosModelHooks, requests = 2_000): FakeStep[] {
  const step = (req: LLMRequest): FakeTurn => {
    const h = hooks();
    const issue = issueOf(req.messages);
    if (h.hold(issue, history(req.messages).executing)) return { hold: true };
    const turn = nextAnswer(req.messages, h.command.has(issue));
    if ("toolCalls" in turn) for (const c of turn.toolCalls ?? []) h.answering(issue, c.name);
    return turn;
  };
  return Array.from({ length: requests }, () => step);
}
