import { chooseCut, isSafeCut, latestUserInstruction, pinnedBefore } from "../../../src/agent/context/cut.js";
import type { Message } from "../../../src/session/messages.js";
import { generateConversation, pairProblems } from "./conversations.js";

const call = (id: string): Message => ({ role: "assistant", content: null, toolCalls: [{ id, name: "read_file", arguments: "{}" }] });
const result = (id: string): Message => ({ role: "tool", toolCallId: id, content: "r" });
const user = (content: string): Message => ({ role: "user", content });

describe("chooseCut", () => {
  it("keeps the last keepRecent messages when the boundary is safe", () => {
    const conv = [user("task"), call("a"), result("a"), call("b"), result("b"), call("c"), result("c")];
    expect(chooseCut(conv, 2)).toBe(5);
  });

  it("moves the cut earlier rather than split a call from its results", () => {
    const multi: Message = {
      role: "assistant",
      content: null,
      toolCalls: [
        { id: "x", name: "a", arguments: "{}" },
        { id: "y", name: "b", arguments: "{}" },
      ],
    };
    const conv = [user("task"), call("a"), result("a"), multi, result("x"), result("y")];
    // Target 5 is inside the x/y batch; so is 4; 3 (the assistant with the batch) is the latest safe cut.
    expect(chooseCut(conv, 1)).toBe(3);
  });

  it("treats a user message between a call's results as inside the pair", () => {
    const multi: Message = {
      role: "assistant",
      content: null,
      toolCalls: [
        { id: "x", name: "a", arguments: "{}" },
        { id: "y", name: "b", arguments: "{}" },
      ],
    };
    const conv = [user("task"), call("a"), result("a"), multi, result("x"), user("approved"), result("y")];
    expect(isSafeCut(conv, 5)).toBe(false);
    expect(chooseCut(conv, 2)).toBe(3);
  });

  it("returns null when nothing past the task can be cut", () => {
    expect(chooseCut([user("task"), call("a"), result("a")], 2)).toBeNull();
    expect(chooseCut([user("task")], 0)).toBeNull();
    const oneBatch: Message = {
      role: "assistant",
      content: null,
      toolCalls: [
        { id: "x", name: "a", arguments: "{}" },
        { id: "y", name: "b", arguments: "{}" },
      ],
    };
    expect(chooseCut([user("task"), oneBatch, result("x"), result("y")], 1)).toBeNull();
  });

  it("pins the task and the latest user instruction when the cut passes them", () => {
    const conv = [user("task"), user("approved"), call("a"), result("a"), call("b"), result("b")];
    expect(latestUserInstruction(conv)).toBe(1);
    expect(pinnedBefore(conv, 4)).toEqual([0, 1]);
    expect(pinnedBefore(conv, 1)).toEqual([0]);
    expect(pinnedBefore([user("task"), call("a"), result("a")], 1)).toEqual([0]);
  });

  // Property check over many generated conversations and every keepRecent.
  it("never separates a tool call from its results and never loses the task or the latest instruction (2000 cases)", () => {
    let cases = 0;
    let cuts = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const conv = generateConversation(seed, 5 + (seed % 40));
      const allResults = new Set(conv.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
      for (let keep = 0; keep < 20; keep++) {
        cases += 1;
        const cut = chooseCut(conv, keep);
        if (cut === null) {
          // Null only when no safe cut exists in [2, len - keep].
          for (let i = 2; i <= conv.length - keep; i++) expect(isSafeCut(conv, i)).toBe(false);
          continue;
        }
        cuts += 1;
        expect(cut).toBeGreaterThanOrEqual(2);
        expect(cut).toBeLessThanOrEqual(conv.length - keep);
        // The latest safe cut: nothing later up to the target would have been allowed.
        for (let i = cut + 1; i <= conv.length - keep; i++) expect(isSafeCut(conv, i)).toBe(false);
        const visible = [...pinnedBefore(conv, cut).map((i) => conv[i]), ...conv.slice(cut)];
        expect(pairProblems(visible, allResults)).toEqual([]);
        expect(pairProblems(conv.slice(0, cut), allResults).filter((p) => p.startsWith("call"))).toEqual([]);
        expect(visible[0]).toBe(conv[0]);
        const latest = latestUserInstruction(conv);
        if (latest !== null) expect(visible).toContain(conv[latest]);
      }
    }
    expect(cases).toBe(2000);
    // The generator must actually exercise cutting, not only the null path.
    expect(cuts).toBeGreaterThan(1000);
  });
});
