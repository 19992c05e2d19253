import type { Detector } from "../detector.js";
import { MAX_SHOWN_LINES } from "../diff-lines.js";
import type { IntegrityFinding, IntegrityTestRun } from "../types.js";

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

function judgeRuns(baseline: IntegrityTestRun, final: IntegrityTestRun): IntegrityFinding[] {
  const found = (message: string, lines: readonly string[]): IntegrityFinding => ({
    kind: "fewer_tests",
    detector: "any.fewer_tests",
    path: null,
    message,
    lines,
  });
  const findings: IntegrityFinding[] = [];
  if (baseline.total !== undefined && final.total !== undefined && final.total < baseline.total)
    findings.push(found(`${count(final.total, "test")} ran on the tree to publish, ${baseline.total} on the base tree`, []));
  if (baseline.skipped !== undefined && final.skipped !== undefined && final.skipped > baseline.skipped)
    findings.push(found(`${count(final.skipped, "test")} skipped on the tree to publish, ${baseline.skipped} on the base tree`, []));
  if (baseline.passedNames !== undefined && final.passedNames !== undefined) {
    const now = new Set(final.passedNames);
    const missing = baseline.passedNames.filter((name) => !now.has(name));
    if (missing.length > 0)
      findings.push(
        found(
          `${count(missing.length, "test")} that passed on the base tree did not pass on the tree to publish`,
          missing.slice(0, MAX_SHOWN_LINES).map((name) => `-${name}`),
        ),
      );
  }
  return findings;
}

/** The runs themselves: whatever the text says, fewer tests ran or a test that passed is gone. */
export const fewerTests: Detector = {
  id: "any.fewer_tests",
  kind: "fewer_tests",
  ecosystem: "any",
  looksAt: "the test reports: fewer tests on the tree to publish than on the base tree, more skipped, or a test that passed on the base tree missing",
  detect: (ctx) => (ctx.input.baseline && ctx.input.final ? judgeRuns(ctx.input.baseline, ctx.input.final) : []),
};
