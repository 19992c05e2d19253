import { mergeRoleRuns, resultsAfterCalls, withRuntimeBlock } from "../../../src/agent/context/message-shape.js";
import type { Message } from "../../../src/session/messages.js";

const user = (content: string): Message => ({ role: "user", content });
type Assistant = Extract<Message, { role: "assistant" }>;
const calls = (...ids: string[]): Assistant => ({ role: "assistant", content: null, toolCalls: ids.map((id) => ({ id, name: "read_file", arguments: "{}" })) });
const says = (content: string | null, ...ids: string[]): Assistant => ({ ...calls(...ids), content });
const result = (id: string): Message => ({ role: "tool", toolCallId: id, content: `{"id":"${id}"}` });

describe("the shape every chat template accepts", () => {
  test("results move right after their call, in call order; a message recorded in between moves after them", () => {
    expect(resultsAfterCalls([user("task"), calls("a", "b"), result("b"), user("while waiting"), result("a")])).toEqual([
      user("task"),
      calls("a", "b"),
      result("a"),
      result("b"),
      user("while waiting"),
    ]);
  });

  test("consecutive user messages become one", () => {
    expect(mergeRoleRuns([user("task"), user("approved"), calls("a"), result("a"), user("x"), user("y")])).toEqual([
      user("task\n\napproved"),
      calls("a"),
      result("a"),
      user("x\n\ny"),
    ]);
  });

  test("two assistant turns in a row (a ledger from before the text answer and its nudge were one append) become one", () => {
    expect(mergeRoleRuns([user("task"), says("First thought."), says("Second thought."), user("go on")])).toEqual([
      user("task"),
      says("First thought.\n\nSecond thought."),
      user("go on"),
    ]);
  });

  test("the merged turn keeps the later turn's calls and reasoning, so the results still follow their call", () => {
    const later: Assistant = { ...says("Reading it.", "a"), reasoning: "sealed:need the file" };
    const merged = resultsAfterCalls(mergeRoleRuns([user("task"), says("Hm."), later, result("a")]));
    expect(merged).toEqual([user("task"), { ...later, content: "Hm.\n\nReading it." }, result("a")]);
    expect(mergeRoleRuns([user("task"), says(null), says(null, "a"), result("a")])).toEqual([user("task"), says(null, "a"), result("a")]);
  });

  test("an assistant turn with calls is never merged into: its results come between it and the next turn", () => {
    const shaped = mergeRoleRuns(resultsAfterCalls([user("task"), calls("a"), says("after the result"), result("a")]));
    expect(shaped).toEqual([user("task"), calls("a"), result("a"), says("after the result")]);
  });

  test("the runtime block ends the last user or tool message; after anything else it is a user message of its own", () => {
    expect(withRuntimeBlock([user("task")], "<rc>")).toEqual([user("task\n\n<rc>")]);
    expect(withRuntimeBlock([user("task"), calls("a"), result("a")], "<rc>").at(-1)).toEqual({ role: "tool", toolCallId: "a", content: '{"id":"a"}\n\n<rc>' });
    expect(withRuntimeBlock([user("task"), { role: "assistant", content: "done?", toolCalls: [] }], "<rc>").at(-1)).toEqual(user("<rc>"));
  });
});
