import { integrityComment } from "../../src/github/outbound/integrity-comment.js";
import type { IntegrityFindingRecord } from "../../src/session/test-integrity.js";
import { requested, SKIP_REPORT, stored, untilFinishCalled } from "./integrity-ledger.js";

const commentFor = (findings: IntegrityFindingRecord[]) =>
  integrityComment(stored([...untilFinishCalled(), requested(undefined, { ...SKIP_REPORT, findings })]).state);

describe("the comment that asks for a test_integrity request", () => {
  test("names each finding, fences its diff lines and says who decides how", () => {
    const md = commentFor(SKIP_REPORT.findings);
    expect(md).toContain("test_integrity request `aaaaaaaaaaaa` (1 finding)");
    expect(md).toContain("**1. `js.skip`** in `test/add.test.js`: `test.skip(` added in test/add.test.js (0 → 1 skip marker)");
    expect(md).toContain('```diff\n+test.skip("adds", () => {\n```');
    expect(md).toContain("`/agent approve integrity aaaaaaaaaaaa`");
    expect(md).toContain("`/agent deny <reason>`");
    expect(md).toContain("the label `agent:writes-approved` does not approve it");
  });

  test("the agent's text cannot close the fence or mention anyone; long findings are cut", () => {
    const hostile: IntegrityFindingRecord = {
      kind: "assertions_removed",
      detector: "js.assertions",
      path: "test/a.test.js",
      message: "assertions removed, ping @octocat about #12",
      lines: ["-expect(x).toBe(1); // ```", ...Array.from({ length: 14 }, (_, i) => `-expect(${i});`)],
    };
    const md = commentFor(Array.from({ length: 33 }, () => hostile));
    expect(md).toContain("ping @\u2060octocat about #\u206012");
    expect(md).toContain("````diff\n-expect(x).toBe(1); // ```\n");
    expect(md).toContain("… 5 more lines\n````");
    expect(md.match(/\*\*\d+\. `js\.assertions`\*\*/g)).toHaveLength(30);
    expect(md).toContain("… and 3 more findings");
    expect(md.length).toBeLessThan(65_536);
  });

  test("nothing waits: no comment", () => {
    expect(integrityComment(stored(untilFinishCalled()).state)).toBe("");
  });
});
