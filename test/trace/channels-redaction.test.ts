import { renderCheckRun } from "../../src/trace/check-run.js";
import { exportTrace } from "../../src/trace/export.js";
import { timelineRows } from "../../src/trace/timeline.js";
import { leakySession } from "./fixtures/leaky-session.js";
import { SAMPLES, WEBHOOK_SECRET } from "./fixtures/secrets.js";

/** Every credential kind, through every outbound channel this folder owns. */
const CASES = [
  ...SAMPLES.map((s) => ({ ...s, marker: s.expected.match(/\[REDACTED:[a-z_]+\]/)![0], secrets: [] as string[] })),
  {
    kind: "configured secret",
    secret: WEBHOOK_SECRET,
    text: `sig ${WEBHOOK_SECRET}`,
    expected: "",
    marker: "[REDACTED:secret]",
    secrets: [WEBHOOK_SECRET],
  },
];

describe.each(CASES)("a $kind", ({ text, secret, marker, secrets }) => {
  const session = leakySession(text);

  it("is redacted in timeline rows", () => {
    const rows = timelineRows(session.events, secrets);
    const details = rows.map((r) => r.detail).join("\n");
    expect(details).not.toContain(secret);
    // Title, plan, assistant text, tool error, user comment and failure message each carry it.
    expect(rows.filter((r) => r.detail.includes(marker)).map((r) => r.event)).toEqual([
      "session_created",
      "plan_submitted",
      "assistant_message",
      "tool_result",
      "user_message",
      "session_failed",
    ]);
  });

  it("is redacted in the check run title, summary and text", () => {
    const out = renderCheckRun(session.state, session.events, { sessionId: session.sessionId, secrets });
    for (const part of [out.title, out.summary, out.text]) expect(part).not.toContain(secret);
    // Failure message, plan summary, plan step, todo and test output in the summary (markdown
    // escapes the marker's brackets and underscores where it is prose).
    const literal = (md: string) => md.replace(/\\([[\]_])/g, "$1");
    expect(literal(out.summary).split(marker).length - 1).toBe(5);
    expect(literal(out.text)).toContain(marker);
  });

  it.each(["json", "jsonl"] as const)("is redacted in the %s export", (format) => {
    const out = exportTrace(session.events, format, secrets);
    expect(out).not.toContain(secret);
    expect(JSON.stringify(JSON.parse(format === "json" ? out : `[${out.trim().split("\n").join(",")}]`))).toContain(marker);
  });
});
