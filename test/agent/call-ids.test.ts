import { ownCallIds } from "../../src/agent/call-ids.js";
import type { Message, ToolCall } from "../../src/session/messages.js";

const call = (id: string): ToolCall => ({ id, name: "write_file", arguments: "{}" });
const turn = (...ids: string[]): Message => ({ role: "assistant", content: null, toolCalls: ids.map(call) });

describe("tool call ids are the runtime's", () => {
  test("a provider id that is unique is kept as it is: it is what goes back on the wire", () => {
    expect(ownCallIds([call("call_a"), call("call_b")], [turn("call_x")])).toEqual([call("call_a"), call("call_b")]);
  });

  test("an empty id gets a fresh one; a repeated id gets a fresh one and keeps the provider's beside it", () => {
    const got = ownCallIds([call(""), call("call_0"), call("call_0")], [turn("call_0")]);
    expect(got.map((c) => [c.id, c.providerId])).toEqual([
      ["pg0000002", undefined],
      ["pg0000003", "call_0"],
      ["pg0000004", "call_0"],
    ]);
    expect(new Set(got.map((c) => c.id)).size).toBe(3);
  });

  test("fresh ids never collide with ids already used, whoever chose them", () => {
    const got = ownCallIds([call("")], [turn("pg0000002", "x")]);
    expect(got[0].id).toBe("pg0000003");
  });

  test("fresh ids are nine alphanumerics, the strictest format a provider asks for", () => {
    expect(ownCallIds([call("")], [])[0].id).toMatch(/^[a-zA-Z0-9]{9}$/);
  });
});
