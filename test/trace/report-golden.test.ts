import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderCheckRun } from "../../src/trace/check-run.js";
import { renderReport } from "../../src/trace/report/report.js";
import { OUTCOMES } from "./fixtures/outcomes.js";

/**
 * Golden files: the whole check-run summary and text per outcome, compared as strings. A change to
 * the report shows up as a diff of these files in review. `PATCHGATE_UPDATE_GOLDEN=1` rewrites them.
 */
const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "golden");
const update = process.env.PATCHGATE_UPDATE_GOLDEN === "1";

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (update) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) throw new Error(`no golden file ${name}; run with PATCHGATE_UPDATE_GOLDEN=1 and review it`);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

describe.each(Object.keys(OUTCOMES))("the %s session's report", (outcome) => {
  const s = OUTCOMES[outcome]();

  test("check run: title, summary and text are the golden ones", () => {
    const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
    golden(`${outcome}.summary.md`, `${out.title}\n\n${out.summary}\n`);
    golden(`${outcome}.text.md`, `${out.text}\n`);
  });

  test("`patchgate show` prints the same report as text", () => {
    const text = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
    golden(`${outcome}.show.txt`, `${text.summary}\n\n${text.timeline}\n`);
  });
});
