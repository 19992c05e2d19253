import { mergeUserRuns, resultsAfterCalls, withRuntimeBlock } from "../../../src/agent/context/message-shape.js";
import type { Message } from "../../../src/session/messages.js";

const user = (content: string): Message => ({ role: "user", content });
const calls = (...ids: string[]): Message => ({ role: "assistant", content: null, toolCalls: ids.map((id) => ({ id, name: "read_file", arguments: "{}" })) });
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
    expect(mergeUserRuns([user("task"), user("approved"), calls("a"), result("a"), user("x"), user("y")])).toEqual([
      user("task\n\napproved"),
      calls("a"),
      result("a"),
      user("x\n\ny"),
    ]);
  });

  test("the runtime block ends the last user or tool message; after anything else it is a user message of its own", () => {
    expect(withRuntimeBlock([user("task")], "<rc>")).toEqual([user("task\n\n<rc>")]);
    expect(withRuntimeBlock([user("task"), calls("a"), result("a")], "<rc>").at(-1)).toEqual({ role: "tool", toolCallId: "a", content: '{"id":"a"}\n\n<rc>' });
    expect(withRuntimeBlock([user("task"), { role: "assistant", content: "done?", toolCalls: [] }], "<rc>").at(-1)).toEqual(user("<rc>"));
  });
});
