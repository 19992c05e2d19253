import { fold } from "../../src/session/reducer.js";
import { IllegalTransitionError, StaleApprovalError } from "../../src/session/errors.js";
import type { SessionEvent } from "../../src/session/events.js";
import type { GrantRequestRecord } from "../../src/session/grants.js";
import type { Approver } from "../../src/session/types.js";
import { approved, created, prepared, submitted } from "../helpers/session-events.js";

const DIGEST = "d".repeat(64);
const HOST: GrantRequestRecord = { kind: "host", target: "grant-target.test", reason: "the test fetches it", scope: "session" };
const bob: Approver = { login: "bob", via: "comment" };

/** A session in execute mode whose request_grant call `g1` is open; `requester` asked for it, under `approvals`. */
function untilRequestCalled(opts: { approvals?: Record<string, string>; unattended?: boolean; requester?: string } = {}): SessionEvent[] {
  const base = created();
  return [
    {
      ...base,
      task: { ...base.task, source: { ...base.task.source, requester: opts.requester ?? "alice" } },
      settings: { ...base.settings, ...(opts.unattended ? { unattended: true } : {}) },
      repoConfig: { approvals: opts.approvals ?? {} },
    },
    prepared,
    submitted(),
    approved(),
    { type: "assistant_message", content: null, toolCalls: [{ id: "g1", name: "request_grant", arguments: JSON.stringify(HOST) }] },
  ];
}
const requested: SessionEvent = { type: "grant_requested", callId: "g1", digest: DIGEST, request: HOST };
const approve = (by: Approver = bob, digest = DIGEST): SessionEvent => ({ type: "grant_approved", digest, by });

describe("a grant request in the reducer", () => {
  test("asked: the session waits in awaiting_grant with the request_grant call open", () => {
    const s = fold([...untilRequestCalled(), requested]);
    expect(s.phase).toBe("awaiting_grant");
    expect(s.grantRequest).toEqual({ callId: "g1", digest: DIGEST, request: HOST, status: "pending" });
    expect(s.openCalls.map((c) => c.id)).toEqual(["g1"]);
    expect(s.grants).toEqual([]);
  });

  test("approved by a human shown it: in force for the rest of the session, bound to the digest", () => {
    const s = fold([...untilRequestCalled(), requested, approve()]);
    expect(s.phase).toBe("executing");
    expect(s.grants).toEqual([{ ...HOST, digest: DIGEST, by: bob }]);
    expect(() => fold([...untilRequestCalled(), requested, approve(bob, "e".repeat(64))])).toThrow(StaleApprovalError);
  });

  test("denied: no grant, the reason kept for the call's answer", () => {
    const s = fold([...untilRequestCalled(), requested, { type: "grant_denied", digest: DIGEST, by: bob, reason: "no" }]);
    expect(s.grants).toEqual([]);
    expect(s.grantRequest).toMatchObject({ status: "denied", reason: "no", decidedBy: bob });
  });

  test.each(["flag", "auto"] as const)("an approval via %s is refused: nobody was shown the request", (via) => {
    expect(() => fold([...untilRequestCalled(), requested, approve({ login: "x", via })])).toThrow(IllegalTransitionError);
  });

  test("with approvals.grants: not_requester the requester's approval is refused, another maintainer's taken", () => {
    const events = [...untilRequestCalled({ approvals: { grants: "not_requester" } }), requested];
    expect(() => fold([...events, approve({ login: "alice", via: "comment" })])).toThrow(IllegalTransitionError);
    expect(fold([...events, approve()]).grants).toHaveLength(1);
    // Without the setting, the requester may approve.
    expect(fold([...untilRequestCalled(), requested, approve({ login: "alice", via: "comment" })]).grants).toHaveLength(1);
  });

  test("never asked in an unattended session, nor by another call than request_grant, nor without a request", () => {
    expect(() => fold([...untilRequestCalled({ unattended: true }), requested])).toThrow(IllegalTransitionError);
    expect(() => fold([...untilRequestCalled(), { ...requested, callId: "zz" }])).toThrow(IllegalTransitionError);
    expect(() => fold([...untilRequestCalled(), approve()])).toThrow(IllegalTransitionError);
  });

  test("a new session starts without the grants of the one before it", () => {
    const first = fold([...untilRequestCalled(), requested, approve()]);
    expect(first.grants).toHaveLength(1);
    expect(fold(untilRequestCalled()).grants).toEqual([]);
  });
});
