import { latestDue, parseCron, type Cron } from "../../src/config/cron.js";

/** The due time a schedule fires for after a gap: the latest in (after, now], once, whatever the gap. */
function cron(text: string): Cron {
  const c = parseCron(text);
  if (typeof c === "string") throw new Error(c);
  return c;
}
const due = (text: string, after: string, now: string) => latestDue(cron(text), new Date(after), new Date(now))?.toISOString() ?? null;

describe("latestDue", () => {
  test("none when no time of the cron falls after `after` up to `now`", () => {
    expect(due("0 * * * *", "2026-03-02T06:00:00Z", "2026-03-02T06:59:59Z")).toBeNull();
  });

  test("`now` itself counts; `after` itself does not", () => {
    expect(due("0 * * * *", "2026-03-02T05:58:00Z", "2026-03-02T06:00:00Z")).toBe("2026-03-02T06:00:00.000Z");
    expect(due("0 * * * *", "2026-03-02T06:00:00Z", "2026-03-02T06:00:30Z")).toBeNull();
  });

  test("several missed: only the latest", () => {
    expect(due("0 * * * *", "2026-03-02T06:00:00Z", "2026-03-02T09:30:00Z")).toBe("2026-03-02T09:00:00.000Z");
    expect(due("0 6 * * 1", "2026-01-05T06:00:00Z", "2026-03-04T00:00:00Z")).toBe("2026-03-02T06:00:00.000Z");
  });

  test("a month of minutes missed is still one due time", () => {
    expect(due("* * * * *", "2026-02-01T00:00:00Z", "2026-03-01T12:34:56Z")).toBe("2026-03-01T12:34:00.000Z");
  });
});
