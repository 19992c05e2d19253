import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import { triggerOf } from "../../src/config/automations.js";
import { nextAfter, parseCron, type Cron } from "../../src/config/cron.js";

function problem(text: string): string {
  const r = parseRepoConfig(text);
  if (r.ok) throw new Error("expected an error");
  return r.error.message;
}

const cron = (text: string): Cron => {
  const c = parseCron(text);
  if (typeof c === "string") throw new Error(c);
  return c;
};
const next = (text: string, iso: string) => nextAfter(cron(text), new Date(iso))?.toISOString();

describe("automations in .github/patchgate.yml", () => {
  test("each trigger kind is read, with ci_failed's default attempts and empty forms", () => {
    const r = parseRepoConfig(`
automations:
  - name: triage
    on:
      issue_labeled: { label: bug }
    approve_plan: auto
  - name: new-issues
    on:
      issue_opened:
  - name: nightly
    on:
      schedule: { cron: "0 3 * * *", task: Update the lockfile, owner: alice }
  - name: fix-ci
    on:
      ci_failed: {}
`);
    if (!r.ok) throw r.error;
    expect((r.config.automations ?? []).map((a) => [a.name, a.approve_plan ?? null, triggerOf(a)])).toEqual([
      ["triage", "auto", { kind: "issue_labeled", label: "bug" }],
      ["new-issues", null, { kind: "issue_opened", labels: [] }],
      ["nightly", null, { kind: "schedule", cron: "0 3 * * *", task: "Update the lockfile", owner: "alice" }],
      ["fix-ci", null, { kind: "ci_failed", maxAttempts: 2 }],
    ]);
  });

  test("no automations key: the config has none", () => {
    const r = parseRepoConfig("test: npm test\n");
    expect(r.ok && r.config.automations).toBeUndefined();
  });

  test("a misspelt trigger names its field and what is allowed there", () => {
    expect(problem("automations:\n  - name: a\n    on:\n      issue_label: { label: bug }\n")).toBe(
      ".github/patchgate.yml line 4: unknown field `automations.0.on.issue_label`: allowed here: issue_labeled, issue_opened, schedule, ci_failed",
    );
  });

  test("two triggers in one automation, or none, is refused", () => {
    expect(problem("automations:\n  - name: a\n    on:\n      issue_opened: {}\n      ci_failed: {}\n")).toMatch(
      /line 4: `automations\.0\.on` exactly one of issue_labeled, issue_opened, schedule, ci_failed \(2 given\)/,
    );
  });

  test("a bad cron names the field and the part of it that is wrong", () => {
    expect(problem('automations:\n  - name: a\n    on:\n      schedule: { cron: "61 * * * *", task: t, owner: alice }\n')).toMatch(
      /line 4: `automations\.0\.on\.schedule\.cron` not a cron schedule \(minute `61`: out of range 0-59\), got "61 \* \* \* \*"/,
    );
  });

  test("a schedule without an owner, and a duplicated name, are refused with their field", () => {
    expect(problem('automations:\n  - name: a\n    on:\n      schedule: { cron: "0 * * * *", task: t }\n')).toMatch(
      /`automations\.0\.on\.schedule\.owner` is required/,
    );
    expect(problem("automations:\n  - name: a\n    on: { ci_failed: {} }\n  - name: a\n    on: { issue_opened: {} }\n")).toMatch(
      /`automations\.1\.name` another automation has this name/,
    );
  });

  test("approve_plan takes only auto, and max_attempts is bounded", () => {
    expect(problem("automations:\n  - name: a\n    on: { ci_failed: {} }\n    approve_plan: writes\n")).toMatch(/`automations\.0\.approve_plan`/);
    expect(problem("automations:\n  - name: a\n    on: { ci_failed: { max_attempts: 50 } }\n")).toMatch(/`automations\.0\.on\.ci_failed\.max_attempts`/);
  });
});

describe("cron", () => {
  test("the next firing strictly after a time, in UTC", () => {
    expect(next("0 3 * * *", "2026-12-06T02:59:59Z")).toBe("2026-12-06T03:00:00.000Z");
    expect(next("0 3 * * *", "2026-12-06T03:00:00Z")).toBe("2026-12-07T03:00:00.000Z");
    expect(next("*/15 * * * *", "2026-12-06T10:07:00Z")).toBe("2026-12-06T10:15:00.000Z");
    expect(next("30 6 * * 1", "2026-12-06T10:00:00Z")).toBe("2026-12-07T06:30:00.000Z"); // a Monday
    expect(next("0 0 1 1 *", "2026-12-06T10:00:00Z")).toBe("2027-01-01T00:00:00.000Z");
    expect(next("0 0 29 2 *", "2026-03-01T00:00:00Z")).toBe("2028-02-29T00:00:00.000Z");
  });

  test("7 is Sunday like 0; both day fields restricted fire on either", () => {
    expect(next("0 12 * * 7", "2026-12-06T13:00:00Z")).toBe("2026-12-13T12:00:00.000Z");
    expect(next("0 0 15 * 1", "2026-12-06T10:00:00Z")).toBe("2026-12-07T00:00:00.000Z");
  });

  test("ranges, steps and lists", () => {
    const c = cron("5,10-20/5 8-9 * * *");
    expect([...c.minutes]).toEqual([5, 10, 15, 20]);
    expect([...c.hours]).toEqual([8, 9]);
  });

  test("what is not a cron is a one-line reason", () => {
    expect(parseCron("* * * *")).toBe("5 fields (minute hour day-of-month month day-of-week), got 4");
    expect(parseCron("0 24 * * *")).toBe("hour `24`: out of range 0-23");
    expect(parseCron("0 0 * jan *")).toBe("month `jan`: not a number, `*`, a range `a-b` or a step `/n`");
    expect(parseCron("0 0 31 2 *")).toBe("it names no day that exists");
    expect(parseCron("*/0 * * * *")).toBe("minute `*/0`: a step must be at least 1");
  });
});
