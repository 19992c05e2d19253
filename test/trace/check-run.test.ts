import { CHECK_RUN_MAX_BYTES, utf8Bytes } from "../../src/safety/byte-limit.js";
import { renderCheckRun } from "../../src/trace/check-run.js";
import { renderMarkdown } from "../../src/trace/report/render-markdown.js";
import { renderReport } from "../../src/trace/report/report.js";
import { buildView } from "../../src/trace/report/session-view.js";
import { stepBlock } from "../../src/trace/report/steps.js";
import { hex, okResult, refusedResult, StoryLedger } from "./fixtures/story-ledger.js";

// 4-byte emoji, a skin-tone modifier, a flag and a ZWJ family, plus a pipe and a newline.
const EMOJI = "😀👍🏽🇫🇷👨‍👩‍👧‍👦|\n";
const emoji = (n: number): string => EMOJI.repeat(n);

/** Valid UTF-8 without a replacement character: nothing was split. */
const validUtf8 = (s: string): boolean => Buffer.from(s, "utf8").toString("utf8") === s && !s.includes("\uFFFD");

/** 300 model steps, every text field emoji-heavy and far past what GitHub accepts. */
function longSession(): StoryLedger {
  const s = new StoryLedger("sess-300")
    .start()
    .read()
    .plan(hex("plan-2", 64), { summary: emoji(800), steps: Array.from({ length: 60 }, (_, i) => `${i} ${emoji(60)}`) });
  s.approvePlan({ login: "alice", via: "review" }).editAsked().approveWrites({ login: "alice", via: "comment" });
  while (s.state.step < 299) {
    const n = s.state.step;
    if (n % 3 === 0) s.command(`grep -r "x${n}" src`, "allow", "allow:read-only-command", okResult({ exit_code: 0 }), `step ${n} ${emoji(100)}`);
    else if (n % 3 === 1)
      s.step(`step ${n} ${emoji(40)}`, [{ tool: "read_file", args: { path: `src/😀${n}.ts` }, result: refusedResult("edit_without_read", emoji(300)) }]);
    else s.read(`src/f${n}.ts`, `step ${n}: ${emoji(400)}`);
  }
  return s.tests(true, undefined, `last step ${emoji(10)}`);
}

describe("the check run within GitHub's limits", () => {
  const s = longSession();
  const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
  const view = buildView(s.state, s.events);

  test("a 300-step session: summary and text within 65,535 bytes each, valid UTF-8", () => {
    expect(s.state.step).toBe(300);
    for (const part of [out.summary, out.text]) {
      expect(utf8Bytes(part)).toBeLessThanOrEqual(CHECK_RUN_MAX_BYTES);
      expect(validUtf8(part)).toBe(true);
    }
  });

  test("the start, the first and the last step are whole; the fold note says how many and how to see all", () => {
    const whole = (i: number) => renderMarkdown([stepBlock(view.steps[i], view)], (x) => x);
    for (const i of [0, 1, 300]) expect(out.text).toContain(whole(i));
    const note = /… (\d+) steps \((\d+)–(\d+)\) folded to stay within GitHub's 65,535-byte limit; `patchgate trace sess-300` prints every event\./.exec(
      out.text,
    );
    expect(note).not.toBeNull();
    const kept = out.text.match(/<details>/g)!.length;
    expect(kept + Number(note![1])).toBe(301);
    expect(Number(note![3]) - Number(note![2]) + 1).toBe(Number(note![1]));
    // The kept tail is contiguous and ends with the last step.
    expect(out.text.trimEnd().endsWith(`${whole(300)}`)).toBe(true);
    expect(out.text).toContain(`<summary>Step ${Number(note![3]) + 1} · `);
  });

  test("`patchgate show` text of the same session fits the same budget", () => {
    const text = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
    expect(utf8Bytes(text.summary)).toBeLessThanOrEqual(CHECK_RUN_MAX_BYTES);
    expect(utf8Bytes(text.timeline)).toBeLessThanOrEqual(CHECK_RUN_MAX_BYTES);
    expect(text.timeline).toMatch(/… \d+ steps \(\d+–\d+\) folded/);
  });

  test("a runaway summary (60 steps, 1,000 files) is capped per section, each saying how much it left out", () => {
    const big = new StoryLedger("sess-big").start();
    const files = Array.from(
      { length: 1000 },
      (_, i) =>
        `diff --git a/f${i}|x.txt b/f${i}|x.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..${hex(`f${i}`)}\n--- /dev/null\n+++ b/f${i}|x.txt\n@@ -0,0 +1 @@\n+${emoji(3).replace(/\n/g, "")}\n`,
    ).join("");
    big.add({ type: "diff_updated", diff: { patch: files, stat: "", filesChanged: 1000, insertions: 1000, deletions: 0 } });
    big.plan(hex("big", 64), { summary: emoji(5000), steps: Array.from({ length: 60 }, (_, i) => `step ${i} ${emoji(50)}`) });
    const summary = renderCheckRun(big.state, big.events, { sessionId: big.sessionId }).summary;
    expect(utf8Bytes(summary)).toBeLessThanOrEqual(CHECK_RUN_MAX_BYTES);
    expect(summary).toContain("… and 950 more files.");
    expect(summary).toContain("… and 10 more steps");
    // A `|` in a file name stays inside its cell.
    expect(summary).toContain("| `f0\\|x.txt` | added | +1 | −0 |");
  });

  test("test output cannot close its fence", () => {
    const t = new StoryLedger("sess-fence").start().read().plan(hex("p", 64));
    t.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
    t.step(null, [
      {
        tool: "run_tests",
        args: {},
        decision: "allow",
        rule: "allow:test-command",
        facts: [{ type: "test_run", command: "npm test", exitCode: 1, treeHash: hex("t"), durationMs: 5, timedOut: false, summary: "```\n# injected heading" }],
        result: okResult({ passed: false, exit_code: 1 }),
      },
    ]);
    expect(renderCheckRun(t.state, t.events, { sessionId: "sess-fence" }).summary).toContain("````\n```\n# injected heading\n````");
  });
});
