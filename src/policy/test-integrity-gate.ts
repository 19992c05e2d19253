import type { IntegrityRequest } from "../session/test-integrity.js";
import type { ToolError } from "../session/types.js";
import { integrityDigest, type IntegrityFinding, type IntegrityReport } from "./test-integrity/index.js";

/**
 * What finish does with the test-integrity report of the tree it would publish (the tests already
 * passed on it): go on (no finding, or a human approved exactly these), ask a human (a `test_integrity`
 * request, its own approval apart from the writes'), or refuse (denied, or nobody can be asked).
 */
export type IntegrityVerdict =
  | { kind: "clear"; digest: string }
  | { kind: "approved"; digest: string }
  | { kind: "ask"; digest: string }
  | { kind: "refused"; digest: string; error: ToolError };

export function judgeIntegrity(report: IntegrityReport, last: IntegrityRequest | null, opts: { unattended: boolean }): IntegrityVerdict {
  const digest = integrityDigest(report);
  if (report.findings.length === 0) return { kind: "clear", digest };
  if (last !== null && last.digest === digest && last.status === "approved") return { kind: "approved", digest };
  if (last !== null && last.digest === digest && last.status === "denied") return { kind: "refused", digest, error: integrityDenied(last) };
  if (opts.unattended) return { kind: "refused", digest, error: integrityUnattended(report) };
  return { kind: "ask", digest };
}

function findingList(report: { findings: readonly Pick<IntegrityFinding, "message">[] }): string {
  return report.findings.map((f) => f.message).join("; ");
}

/** The model's answer to a denial: every finding by name, and what to do instead. */
export function integrityDenied(request: Pick<IntegrityRequest, "report" | "reason" | "decidedBy">): ToolError {
  const who = request.decidedBy ? ` by ${request.decidedBy.login}` : "";
  const why = request.reason ? ` (${request.reason})` : "";
  return {
    code: "test_integrity_denied",
    message: `test_integrity denied${who}${why}: ${findingList(request.report)} — restore the tests and fix the code instead; then run_tests and finish again.`,
    details: { findings: request.report.findings },
  };
}

/** Nobody answers in an unattended session: weakened tests are refused, never published unseen. */
function integrityUnattended(report: IntegrityReport): ToolError {
  return {
    code: "test_integrity_refused",
    message: `finish refused: the change weakens the tests (${findingList(report)}), which only a maintainer can approve, and this session runs unattended. Restore the tests and fix the code instead; then run_tests and finish again.`,
    details: { findings: report.findings },
  };
}

/** The findings as a maintainer reads them before deciding: each one, with the diff lines that show it. */
export function findingsText(report: { findings: readonly Pick<IntegrityFinding, "message" | "lines">[] }): string {
  return report.findings.map((f) => [`- ${f.message}`, ...f.lines.map((l) => `    ${l}`)].join("\n")).join("\n");
}
