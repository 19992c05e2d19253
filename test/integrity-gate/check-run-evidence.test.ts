import { renderCheckRun } from "../../src/trace/check-run.js";
import { accepted, DIGEST, maintainer, requested, SKIP_REPORT, stored, untilFinishCalled } from "./integrity-ledger.js";

const summaryOf = (events: Parameters<typeof stored>[0]) => {
  const s = stored(events);
  return renderCheckRun(s.state, s.events, { sessionId: "s1" }).summary;
};

describe("the check run shows the test-integrity verdict", () => {
  test("nothing found: Evidence says so, with how much was examined", () => {
    const md = summaryOf([...untilFinishCalled(), ...accepted({ findings: [], detectorsRun: 21, testFilesExamined: 3 }, "c".repeat(64))]);
    expect(md).toContain("Test integrity: no weakening found (21 detectors on 3 test files).");
  });

  test("an approved finding: Evidence lists it with who approved it; Governance shows the request, its decision and tests.allow", () => {
    const md = summaryOf([
      ...untilFinishCalled({ allow: ["snapshots"] }),
      requested(),
      { type: "integrity_approved", digest: DIGEST, by: maintainer },
      ...accepted(SKIP_REPORT),
    ]);
    const evidence = md.slice(md.indexOf("### Evidence"));
    expect(evidence).toContain("Test integrity: 1 finding");
    expect(evidence).toContain(
      // Mentions are made inert (a word joiner after @) and the finding's own backticks escaped.
      "- `js.skip` \\`test.skip(\\` added in test/add.test.js (0 → 1 skip marker) — approved by @\u2060alice via comment at 2026-12-06 06:00:07 UTC",
    );
    const governance = md.slice(
      md.indexOf("### Governance"),
      md.indexOf("### Evidence") > md.indexOf("### Governance") ? md.indexOf("### Evidence") : undefined,
    );
    expect(governance).toContain("Expected by the repository (`tests.allow`), published without asking: `snapshots`");
    expect(governance).toMatch(/Request `aaaaaaaaaaaa` — \*\*approved by @\u2060alice via comment\*\*/);
  });

  test("waiting: the title and Evidence say a test_integrity decision is awaited", () => {
    const s = stored([...untilFinishCalled(), requested()]);
    const out = renderCheckRun(s.state, s.events, { sessionId: "s1" });
    expect(out.title).toContain("Waiting for test-integrity approval");
    expect(out.summary).toContain("waiting for a maintainer's decision");
  });
});
