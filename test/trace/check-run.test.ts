import { CHECK_RUN_MAX_BYTES, utf8Bytes } from "../../src/trace/byte-limit.js";
import { renderCheckRun } from "../../src/trace/check-run.js";
import type { Todo } from "../../src/session/types.js";
import { SessionScript } from "./fixtures/session-script.js";

// 4-byte emoji, a skin-tone modifier, a flag and a ZWJ family (25 bytes, 7 code points), plus
// a pipe and a newline that must be escaped in table cells.
const EMOJI = "😀👍🏽🇫🇷👨‍👩‍👧‍👦|\n";
const emoji = (n: number): string => EMOJI.repeat(n);

/** Valid UTF-8 without a replacement character: nothing was split. */
function validUtf8(s: string): boolean {
  return Buffer.from(s, "utf8").toString("utf8") === s && !s.includes("\uFFFD");
}

/** 300 events, every text field emoji-heavy and far past what GitHub accepts. */
function emojiSession(): SessionScript {
  const s = new SessionScript("sess-emoji");
  const steps = Array.from({ length: 60 }, (_, i) => `${i} ${emoji(60)}`);
  const todos: Todo[] = Array.from({ length: 60 }, (_, i) => ({ id: `t${i}`, content: emoji(60), status: i === 0 ? "in_progress" : "pending" }));
  s.created({ title: emoji(10) }).add(
    { type: "workspace_prepared", baseCommit: "a".repeat(40), workdir: "/ws" },
    { type: "plan_submitted", plan: { summary: emoji(800), steps }, hash: "h".repeat(64) },
    { type: "plan_approved", hash: "h".repeat(64), by: { login: "alice", via: "review" } },
    { type: "todos_updated", todos },
  );
  while (s.events.length < 296) {
    s.toolStep("read_file", { path: "src/😀.ts" }, emoji(200));
    s.add({ type: "user_message", content: emoji(80), by: "bob" });
  }
  s.add(
    { type: "test_run", command: "npm test", exitCode: 0, treeHash: "f".repeat(40), durationMs: 4200, timedOut: false, summary: emoji(900) },
    { type: "diff_updated", diff: { stat: emoji(2000), patch: "", filesChanged: 3, insertions: 10, deletions: 2 } },
  );
  while (s.events.length < 300) s.add({ type: "user_message", content: `last ${s.events.length} ${emoji(5)}` });
  return s;
}

describe("renderCheckRun", () => {
  it("keeps a 300-event emoji session within 65535 bytes each, valid UTF-8, newest rows kept", () => {
    const s = emojiSession();
    expect(s.events).toHaveLength(300);
    const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });

    for (const part of [out.summary, out.text]) {
      expect(utf8Bytes(part)).toBeLessThanOrEqual(CHECK_RUN_MAX_BYTES);
      expect(validUtf8(part)).toBe(true);
    }
    expect(out.summary).toContain("… summary truncated — run `patchgate trace sess-emoji` to see all");

    const note = out.text.match(/… (\d+) events omitted — run `patchgate trace sess-emoji` to see all/);
    expect(note).not.toBeNull();
    const rows = out.text.split("\n").filter((l) => l.startsWith("| 2025-"));
    expect(rows.length + Number(note![1])).toBe(300);
    expect(rows.at(-1)).toContain("last 299");
    // Cells stay cells: each row has exactly the four cell separators and no raw pipe.
    for (const row of rows) expect(row.replace(/\\\|/g, "").split("|")).toHaveLength(6);
  });

  it("names the session's toolchains in one summary line; how each was found is the timeline's row", () => {
    const s = new SessionScript("sess-tc").executing();
    const rust = { name: "rust", version: "1.95.0", path: "/h/.rustup/toolchains/stable/bin", binds: ["/h/.rustup/toolchains/stable"], how: "rustup default stable (settings.toml)" };
    const go = { name: "go", version: "1.22.3", path: "/usr/local/go/bin", binds: ["/usr/local/go"], how: "go 1.22.3, pinned by go.mod (1.22 or later)" };
    s.add({ type: "toolchains_resolved", toolchains: [rust, go], unmet: [] });
    const out = renderCheckRun(s.state, s.events, { sessionId: "sess-tc" });
    expect(out.summary.split("\n")[1]).toBe("**Toolchains:** rust 1.95.0 (`/h/.rustup/toolchains/stable/bin`) · go 1.22.3 (`/usr/local/go/bin`)");
    expect(out.text).toContain("rust 1.95.0 at /h/.rustup/toolchains/stable/bin (rustup default stable (settings.toml)) · go 1.22.3 at /usr/local/go/bin");
  });

  it("renders phase, plan, todo checklist, last test run, diff stat, the paths to publish and usage", () => {
    const s = new SessionScript("sess-2").executing();
    s.add({
      type: "todos_updated",
      todos: [
        { id: "1", content: "read parser", status: "completed" },
        { id: "2", content: "fix loop", status: "in_progress" },
        { id: "3", content: "docs", status: "cancelled" },
        { id: "4", content: "run tests", status: "pending" },
      ],
    });
    s.toolStep("run_tests", {}, "ok", { promptTokens: 1200, completionTokens: 30 }, 0.0042);
    s.add(
      { type: "file_written", path: "src/parser.ts", hash: "a".repeat(64) },
      { type: "test_run", command: "npm test", exitCode: 0, treeHash: "e".repeat(40), durationMs: 3210, timedOut: false, summary: "12 passed" },
      { type: "diff_updated", diff: { stat: " src/parser.ts | 2 +-", patch: "", filesChanged: 1, insertions: 1, deletions: 1 } },
    );
    const out = renderCheckRun(s.state, s.events, { sessionId: "sess-2" });
    expect(out.title).toBe("Patchgate: Executing: 1/4 todos done");
    expect(out.summary).toBe(
      [
        "**Phase:** `executing` · **Mode:** `execute` · **Steps:** 1",
        "",
        "### Plan (approved)",
        "",
        "Fix the off-by-one in the parser",
        "",
        "1. read src/parser.ts",
        "2. fix the loop bound",
        "3. run the tests",
        "",
        "### Todos",
        "",
        "- [x] read parser",
        "- [ ] **fix loop** (in progress)",
        "- [ ] ~~docs~~ (cancelled)",
        "- [ ] run tests",
        "",
        "### Last test run",
        "",
        "`npm test` passed in 3.2 s on tree `eeeeeeeeeeee`",
        "",
        "```",
        "12 passed",
        "```",
        "",
        "### Diff",
        "",
        "1 files changed, +1 −1",
        "",
        "```",
        " src/parser.ts | 2 +-",
        "```",
        "",
        "Files the session may publish so far (written with file tools or by approved commands):",
        "",
        "- `src/parser.ts`",
        "",
        "### Usage",
        "",
        "1 LLM calls · 1,200 prompt + 30 completion tokens · cost $0.0042",
        "",
        "<sub>Session `sess-2` · full trace: `patchgate trace sess-2`</sub>",
      ].join("\n"),
    );
    expect(out.text.split("\n").slice(0, 4)).toEqual([
      "## Timeline",
      "",
      "| time (UTC) | step | event | detail |",
      "|---|---:|---|---|",
    ]);
    expect(out.text).toContain("| 2025-01-02 03:04:10 | 1 | llm_called | gpt-4o 1200+30 tokens, 800 ms, $0.0042 |");
  });

  it("states the outcome and reason of a failed session and an unknown cost", () => {
    const s = new SessionScript("sess-3").executing();
    s.toolStep("read_file", { path: "a" }, "x", {}, null);
    s.add({ type: "session_failed", reason: "budget_exceeded", message: "token budget spent: 9 of 5 tokens used" });
    const out = renderCheckRun(s.state, s.events, { sessionId: "sess-3" });
    expect(out.title).toBe("Patchgate: Failed: budget_exceeded");
    expect(out.summary.split("\n")[1]).toBe("**Outcome:** failed — `budget_exceeded`: token budget spent: 9 of 5 tokens used");
    expect(out.summary).toContain("cost unknown (no price for model `gpt-4o`)");
  });

  it("escapes pipes in cells and fences that content cannot close", () => {
    const s = new SessionScript("sess-4").executing();
    s.add({ type: "test_run", command: "npm test", exitCode: 1, treeHash: "e".repeat(40), durationMs: 10, timedOut: false, summary: "```\n# injected heading" });
    s.add({ type: "user_message", content: "a | b" });
    const out = renderCheckRun(s.state, s.events, { sessionId: "sess-4" });
    expect(out.summary).toContain("````\n```\n# injected heading\n````");
    expect(out.text).toContain("| user_message | a \\| b |");
  });
});
