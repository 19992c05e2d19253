import type { SessionEvent } from "../../src/session/events.js";
import { fold } from "../../src/session/reducer.js";
import type { Phase } from "../../src/session/types.js";
import { asked, llmCalled, requested, toExecuting, toolResult } from "../helpers/session-events.js";
import { expectIllegal, failed, finish, planning } from "./reducer-helpers.js";

describe("every call is answered before the next model request", () => {
  const call = (id: string, name = "read_file") => ({ id, name, arguments: "{}" });
  const turnOf = (...ids: string[]): SessionEvent => ({ type: "assistant_message", content: null, toolCalls: ids.map((id) => call(id)) });

  test("a model call while a call of the last turn has no result is refused", () => {
    expectIllegal([...planning(), turnOf("c1", "c2"), toolResult("c1")], llmCalled({}, 0), "calls of the last model turn have no result yet (read_file c2)");
    expectIllegal([...planning(), turnOf("c1")], turnOf("c2"), "have no result yet");
  });

  test("once every call has its result the next request may be made", () => {
    const s = fold([...planning(), turnOf("c1", "c2"), toolResult("c2"), toolResult("c1"), llmCalled({}, 0)]);
    expect(s.openCalls).toEqual([]);
  });

  test("call ids are unique in the session: a repeat within a turn or from an earlier turn is refused", () => {
    expectIllegal(planning(), turnOf("c1", "c1"), 'tool call id "c1" is empty or already used');
    expectIllegal([...planning(), turnOf("c1"), toolResult("c1")], turnOf("c1"), 'tool call id "c1" is empty or already used');
    expectIllegal(planning(), turnOf(""), 'tool call id "" is empty or already used');
  });

  test("a result or a start for a call that is not open is refused", () => {
    expectIllegal(planning(), toolResult("nobody"), "call nobody is not an open call of the last model turn");
    expectIllegal([...planning(), turnOf("c1"), toolResult("c1")], toolResult("c1"), "call c1 is not an open call");
    expectIllegal([...planning(), turnOf("c1")], { type: "tool_started", callId: "c2" }, "call c2 is not an open call");
  });

  test("tool_started marks the call as possibly having had an effect", () => {
    const s = fold([...planning(), turnOf("c1", "c2"), { type: "tool_started", callId: "c1" }]);
    expect(s.openCalls).toEqual([
      { id: "c1", name: "read_file", started: true },
      { id: "c2", name: "read_file", started: false },
    ]);
  });

  test("a batch may only ask for open calls", () => {
    expectIllegal([...toExecuting(), turnOf("c1")], requested("d1", ["c9"]), "call c9 is not an open call");
  });

  test("answers cut at the output limit are counted", () => {
    expect(fold([...planning(), { ...llmCalled({}, 0), finishReason: "length" }, llmCalled({}, 0)]).outputCuts).toBe(1);
  });
});

describe("a failed session reopened (`/agent retry`)", () => {
  const reopened = (phase: Phase): SessionEvent => ({ type: "session_reopened", by: "alice", phase });

  test("continues in the phase it failed in, the approved plan still approved", () => {
    const s = fold([...toExecuting(), failed, reopened("executing")]);
    expect([s.phase, s.mode, s.approvedPlanHash, s.failure, s.failedIn]).toEqual(["executing", "execute", "h1", null, null]);
  });

  test("a batch that was waiting keeps waiting", () => {
    const s = fold([...toExecuting(), ...asked(), failed, reopened("awaiting_write_approval")]);
    expect([s.phase, s.pending?.status]).toEqual(["awaiting_write_approval", "pending"]);
  });

  test("a failed publication goes back to executing, and finish must be accepted again", () => {
    const s = fold([...toExecuting(), finish, failed, reopened("executing")]);
    expect([s.phase, s.finishedTree, s.finishSummary]).toEqual(["executing", null, null]);
  });

  test("only a failed session, and only into the phase it failed in", () => {
    expectIllegal(toExecuting(), reopened("executing"), "allowed only in failed");
    expectIllegal([...toExecuting(), failed], reopened("planning"), "the session continues in executing, not planning");
  });
});
