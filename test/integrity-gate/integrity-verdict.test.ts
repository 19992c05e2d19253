import { judgeIntegrity } from "../../src/policy/test-integrity-gate.js";
import { integrityDigest, type IntegrityReport } from "../../src/policy/test-integrity/index.js";
import type { IntegrityRequest } from "../../src/session/test-integrity.js";
import { maintainer } from "./integrity-ledger.js";

const report = (message: string): IntegrityReport => ({
  findings: [{ kind: "skip_marker_added", detector: "py.skip", path: "tests/test_a.py", message, lines: ["+@pytest.mark.skip"] }],
  detectorsRun: 20,
  testFilesExamined: 1,
});
const decided = (r: IntegrityReport, status: "approved" | "denied"): IntegrityRequest => ({
  callId: "f1",
  digest: integrityDigest(r),
  report: r,
  status,
  decidedBy: maintainer,
  reason: "restore it",
});

describe("judgeIntegrity: what finish does with the report", () => {
  const a = report("`@pytest.mark.skip` added in tests/test_a.py");
  const b = report("`@pytest.mark.skip` added in tests/test_b.py");

  test("no finding: clear, nothing to ask", () => {
    expect(judgeIntegrity({ findings: [], detectorsRun: 20, testFilesExamined: 3 }, null, { unattended: false }).kind).toBe("clear");
  });

  test("findings nobody decided: ask, bound to their digest", () => {
    expect(judgeIntegrity(a, null, { unattended: false })).toEqual({ kind: "ask", digest: integrityDigest(a) });
  });

  test("an approval binds to its findings: the same ones go on, other ones (the tree changed) ask again", () => {
    expect(judgeIntegrity(a, decided(a, "approved"), { unattended: false }).kind).toBe("approved");
    expect(judgeIntegrity(b, decided(a, "approved"), { unattended: false })).toEqual({ kind: "ask", digest: integrityDigest(b) });
  });

  test("denied findings sent again are refused, naming each finding and who denied them", () => {
    const v = judgeIntegrity(a, decided(a, "denied"), { unattended: false });
    expect(v.kind === "refused" ? v.error.message : "").toBe(
      "test_integrity denied by alice (restore it): `@pytest.mark.skip` added in tests/test_a.py — restore the tests and fix the code instead; then run_tests and finish again.",
    );
  });

  test("unattended: refused, never asked and never published unseen", () => {
    const v = judgeIntegrity(a, null, { unattended: true });
    expect(v.kind).toBe("refused");
    expect(v.kind === "refused" ? v.error.code : "").toBe("test_integrity_refused");
  });
});
