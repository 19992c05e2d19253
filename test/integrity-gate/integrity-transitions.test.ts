import { fold } from "../../src/session/reducer.js";
import { IllegalTransitionError, StaleApprovalError } from "../../src/session/errors.js";
import { accepted, DIGEST, maintainer, requested, SKIP_REPORT, untilFinishCalled } from "./integrity-ledger.js";

const decide = (type: "integrity_approved" | "integrity_denied", by = maintainer, digest = DIGEST) =>
  type === "integrity_approved" ? { type, digest, by } : { type, digest, by, reason: "no" };

describe("the test_integrity request in the reducer", () => {
  test("asked: the session waits in its own phase, the finish call open, apart from any write batch", () => {
    const s = fold([...untilFinishCalled(), requested()]);
    expect(s.phase).toBe("awaiting_integrity_approval");
    expect(s.integrity).toEqual({ callId: "f1", digest: DIGEST, report: SKIP_REPORT, status: "pending" });
    expect(s.openCalls.map((c) => c.id)).toEqual(["f1"]);
    expect(s.pending).toBeNull();
  });

  test("only a finish call that is open may ask, only with findings, only while executing", () => {
    expect(() => fold([...untilFinishCalled(), { type: "integrity_requested", callId: "x9", digest: DIGEST, report: SKIP_REPORT }])).toThrow(
      IllegalTransitionError,
    );
    expect(() => fold([...untilFinishCalled(), requested(DIGEST, { ...SKIP_REPORT, findings: [] })])).toThrow(IllegalTransitionError);
    expect(() => fold([...untilFinishCalled(), requested(), requested()])).toThrow(IllegalTransitionError);
  });

  test.each(["comment", "review", "check_run", "cli"] as const)("approved by a human via %s, bound to the digest", (via) => {
    const s = fold([...untilFinishCalled(), requested(), decide("integrity_approved", { login: "alice", via })]);
    expect(s.phase).toBe("executing");
    expect(s.integrity?.status).toBe("approved");
    expect(s.integrity?.decidedBy).toEqual({ login: "alice", via });
  });

  test.each(["label", "flag", "auto"] as const)("an approval via %s is refused: nobody was shown the findings", (via) => {
    expect(() => fold([...untilFinishCalled(), requested(), decide("integrity_approved", { login: "x", via })])).toThrow(IllegalTransitionError);
  });

  test("a decision on other findings (another digest) is stale; none without a request", () => {
    expect(() => fold([...untilFinishCalled(), requested(), decide("integrity_approved", maintainer, "b".repeat(64))])).toThrow(StaleApprovalError);
    expect(() => fold([...untilFinishCalled(), decide("integrity_denied")])).toThrow(IllegalTransitionError);
  });

  test("denied: executing again, the reason kept for the model's answer", () => {
    const s = fold([...untilFinishCalled(), requested(), decide("integrity_denied")]);
    expect(s.phase).toBe("executing");
    expect(s.integrity).toMatchObject({ status: "denied", reason: "no", decidedBy: maintainer });
  });

  test("checked with findings only after their approval; checked clean needs none", () => {
    expect(() => fold([...untilFinishCalled(), ...accepted(SKIP_REPORT)])).toThrow(IllegalTransitionError);
    expect(() => fold([...untilFinishCalled(), requested(), decide("integrity_denied"), ...accepted(SKIP_REPORT)])).toThrow(IllegalTransitionError);
    const approved = fold([...untilFinishCalled(), requested(), decide("integrity_approved"), ...accepted(SKIP_REPORT)]);
    expect(approved.phase).toBe("publishing");
    expect(approved.integrityChecked).toMatchObject({ digest: DIGEST, approvedBy: maintainer });
    const clean = fold([...untilFinishCalled(), ...accepted({ findings: [], detectorsRun: 20, testFilesExamined: 2 }, "c".repeat(64))]);
    expect(clean.integrityChecked).toMatchObject({ approvedBy: null, report: { findings: [] } });
  });
});
