import type { StoredEvent } from "../../../src/session/events.js";
import type { SessionState } from "../../../src/session/state.js";
import {
  digestForComment,
  integrityDigestForButton,
  integrityDigestForComment,
  planHashForButton,
  planHashForComment,
} from "../../../src/github/session-work/binding.js";

const H1 = "a".repeat(64);
const H2 = "b".repeat(64);
const history = [
  { type: "plan_submitted", hash: H1, plan: { summary: "", steps: [] }, seq: 5, at: "2026-01-01T10:00:00.400Z" },
  { type: "plan_submitted", hash: H2, plan: { summary: "", steps: [] }, seq: 9, at: "2026-01-01T10:05:00.700Z" },
] as StoredEvent[];
const state = { planHash: H2, pending: null } as unknown as SessionState;
/** A comment stamped `at`, with an id larger than any request comment below. */
const act = (at: string) => ({ at, commentId: 5000 });
/** No request comment remembered: time alone decides. */
const none = { name: (v: string) => v.slice(0, 12), id: () => Promise.resolve(null) };
/** Request comments remembered with these ids, by value. */
const posted = (ids: Record<string, number>) => ({ name: (v: string) => v.slice(0, 12), id: (v: string) => Promise.resolve(ids[v] ?? null) });

describe("what an approval approves", () => {
  test("a comment written before the current plan existed approves the older plan", async () => {
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:01:00Z"), none)).toBe(H1);
  });
  test("a comment written after the current plan approves it", async () => {
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:06:00Z"), none)).toBe(H2);
  });
  // Changed: this used to bind to H2. GitHub's whole-second stamp 10:05:00 covers a comment made at
  // 10:05:00.2, before H2 existed (10:05:00.7): the approval then went to a plan nobody had seen.
  // An ambiguous second now binds to the plan before; at worst the human is told to approve again.
  test("GitHub's whole-second timestamp in the same second as the plan binds to the plan before it", async () => {
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:05:00Z"), none)).toBe(H1);
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:05:01Z"), none)).toBe(H2);
  });
  test("a timestamp with milliseconds is compared exactly", async () => {
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:05:00.600Z"), none)).toBe(H1);
    expect(await planHashForComment(state, history, null, act("2026-01-01T10:05:00.700Z"), none)).toBe(H2);
  });
  test("a comment before any plan approves nothing", async () => {
    expect(await planHashForComment(state, history, null, act("2026-01-01T09:00:00Z"), none)).toBeNull();
  });
  test("a named prefix of the current plan binds to it", async () => {
    expect(await planHashForComment(state, history, "bbbbbbbb", act("2026-01-01T09:00:00Z"), none)).toBe(H2);
  });
  test("a named prefix of another plan stays that prefix (and is refused as stale)", async () => {
    expect(await planHashForComment(state, history, "aaaaaaaa", act("2026-01-01T10:06:00Z"), none)).toBe("aaaaaaaa");
  });
  test("the button identifier binds to the hash it was rendered with", () => {
    expect(planHashForButton(state, `approve:${H2.slice(0, 12)}`)).toBe(H2);
    expect(planHashForButton(state, `approve:${H1.slice(0, 12)}`)).toBe(H1.slice(0, 12));
    expect(planHashForButton(state, "something-else")).toBeNull();
  });
  test("a batch comment binds to the batch pending when it was written", async () => {
    const events = [{ type: "approval_requested", digest: "d1", calls: [], seq: 3, at: "2026-01-01T10:00:00Z" }] as unknown as StoredEvent[];
    expect(await digestForComment(state, events, null, act("2026-01-01T10:00:30Z"), none)).toBe("d1");
  });

  describe("within the second, by comment ids", () => {
    const same = "2026-01-01T10:05:00Z";
    test("a comment with a larger id than the plan's request comment saw that plan", async () => {
      const ids = posted({ [H1]: 100, [H2]: 200 });
      expect(await planHashForComment(state, history, null, { at: same, commentId: 201 }, ids)).toBe(H2);
    });
    test("a comment with a smaller id did not; the second before still binds by time", async () => {
      const ids = posted({ [H1]: 100, [H2]: 200 });
      expect(await planHashForComment(state, history, null, { at: same, commentId: 199 }, ids)).toBe(H1);
    });
    test("the same second as the first plan, before its request comment, approves nothing", async () => {
      const ids = posted({ [H1]: 100, [H2]: 200 });
      expect(await planHashForComment(state, history, null, { at: "2026-01-01T10:00:00Z", commentId: 99 }, ids)).toBeNull();
      expect(await planHashForComment(state, history, null, { at: "2026-01-01T10:00:00Z", commentId: 101 }, ids)).toBe(H1);
    });
    test("a plan submitted again updates its earlier comment, whose id does not witness the later plan", async () => {
      const again = [...history, { ...history[0], seq: 12, at: "2026-01-01T10:09:00.300Z" }] as StoredEvent[];
      const ids = posted({ [H1]: 100, [H2]: 200 });
      // Written while H2 was current, in the second H1 came back: it saw H2, not the returned H1.
      expect(await planHashForComment(state, again, null, { at: "2026-01-01T10:09:00Z", commentId: 300 }, ids)).toBe(H2);
    });
    test("a batch comment after the batch's request comment binds to that batch", async () => {
      const events = [{ type: "approval_requested", digest: "d1", calls: [], seq: 3, at: "2026-01-01T10:00:00.900Z" }] as unknown as StoredEvent[];
      expect(await digestForComment(state, events, null, { at: "2026-01-01T10:00:00Z", commentId: 51 }, posted({ d1: 50 }))).toBe("d1");
      expect(await digestForComment(state, events, null, { at: "2026-01-01T10:00:00Z", commentId: 49 }, posted({ d1: 50 }))).toBeNull();
    });
    test("a comment after a test_integrity request's comment decides that request; one before it, none", async () => {
      const events = [
        { type: "integrity_requested", callId: "f", digest: "i1", report: {}, seq: 3, at: "2026-01-01T10:00:00.900Z" },
      ] as unknown as StoredEvent[];
      const waiting = { integrity: { digest: "i1", status: "pending" } } as unknown as SessionState;
      expect(await integrityDigestForComment(waiting, events, null, { at: "2026-01-01T10:00:00Z", commentId: 51 }, posted({ i1: 50 }))).toBe("i1");
      expect(await integrityDigestForComment(waiting, events, null, { at: "2026-01-01T10:00:00Z", commentId: 49 }, posted({ i1: 50 }))).toBeNull();
      expect(await integrityDigestForComment(waiting, events, null, act("2026-01-01T10:00:01Z"), none)).toBe("i1");
    });
  });
});

describe("the Approve tests button", () => {
  const D = "c".repeat(64);
  const waiting = { integrity: { digest: D, status: "pending" } } as unknown as SessionState;
  test("names the waiting request by the 10 hex in its identifier", () => {
    expect(integrityDigestForButton(waiting, `integrity:${"c".repeat(10)}`)).toBe(D);
  });
  test("an older request's press names that one (refused as stale), and a malformed identifier names none", () => {
    expect(integrityDigestForButton(waiting, "integrity:0123456789")).toBe("0123456789");
    expect(integrityDigestForButton(waiting, "integrity:cccc")).toBeNull();
    expect(integrityDigestForButton(waiting, `approve:${"c".repeat(12)}`)).toBeNull();
  });
});
