import type { StoredEvent } from "../../src/session/events.js";
import type { SessionState } from "../../src/session/state.js";
import { digestForComment, planHashForButton, planHashForComment } from "../../src/github/session-work/binding.js";

const H1 = "a".repeat(64);
const H2 = "b".repeat(64);
const history = [
  { type: "plan_submitted", hash: H1, plan: { summary: "", steps: [] }, seq: 5, at: "2026-01-01T10:00:00.400Z" },
  { type: "plan_submitted", hash: H2, plan: { summary: "", steps: [] }, seq: 9, at: "2026-01-01T10:05:00.700Z" },
] as StoredEvent[];
const state = { planHash: H2, pending: null } as unknown as SessionState;

describe("what an approval approves", () => {
  test("a comment written before the current plan existed approves the older plan", () => {
    expect(planHashForComment(state, history, null, "2026-01-01T10:01:00Z")).toBe(H1);
  });
  test("a comment written after the current plan approves it", () => {
    expect(planHashForComment(state, history, null, "2026-01-01T10:06:00Z")).toBe(H2);
  });
  // Changed: this used to bind to H2. GitHub's whole-second stamp 10:05:00 covers a comment made at
  // 10:05:00.2, before H2 existed (10:05:00.7): the approval then went to a plan nobody had seen.
  // An ambiguous second now binds to the plan before; at worst the human is told to approve again.
  test("GitHub's whole-second timestamp in the same second as the plan binds to the plan before it", () => {
    expect(planHashForComment(state, history, null, "2026-01-01T10:05:00Z")).toBe(H1);
    expect(planHashForComment(state, history, null, "2026-01-01T10:05:01Z")).toBe(H2);
  });
  test("a timestamp with milliseconds is compared exactly", () => {
    expect(planHashForComment(state, history, null, "2026-01-01T10:05:00.600Z")).toBe(H1);
    expect(planHashForComment(state, history, null, "2026-01-01T10:05:00.700Z")).toBe(H2);
  });
  test("a comment before any plan approves nothing", () => {
    expect(planHashForComment(state, history, null, "2026-01-01T09:00:00Z")).toBeNull();
  });
  test("a named prefix of the current plan binds to it", () => {
    expect(planHashForComment(state, history, "bbbbbbbb", "2026-01-01T09:00:00Z")).toBe(H2);
  });
  test("a named prefix of another plan stays that prefix (and is refused as stale)", () => {
    expect(planHashForComment(state, history, "aaaaaaaa", "2026-01-01T10:06:00Z")).toBe("aaaaaaaa");
  });
  test("the button identifier binds to the hash it was rendered with", () => {
    expect(planHashForButton(state, `approve:${H2.slice(0, 12)}`)).toBe(H2);
    expect(planHashForButton(state, `approve:${H1.slice(0, 12)}`)).toBe(H1.slice(0, 12));
    expect(planHashForButton(state, "something-else")).toBeNull();
  });
  test("a batch comment binds to the batch pending when it was written", () => {
    const events = [{ type: "approval_requested", digest: "d1", calls: [], seq: 3, at: "2026-01-01T10:00:00Z" }] as unknown as StoredEvent[];
    expect(digestForComment(state, events, null, "2026-01-01T10:00:30Z")).toBe("d1");
  });
});
