import type { List } from "mdast";
import { parseMarkdown, visit } from "../../src/safety/markdown-tree.js";
import { renderReport } from "../../src/trace/report/report.js";
import { OUTCOMES } from "./fixtures/outcomes.js";
import { hex, okResult, StoryLedger } from "./fixtures/story-ledger.js";

/**
 * The paths that reach the branch (src/session/publishable.ts): the Change section lists them from
 * the ledger — as finish accepted them, or what the session may publish so far — and a command a
 * human approved that changed files says so in Governance and in its step.
 */
const md = (s: StoryLedger) => renderReport(s.state, s.events, { sessionId: s.sessionId, format: "markdown" });

/** The items of the list that follows the paragraph starting with `intro`, as the GFM parser reads them. */
function listAfter(markdown: string, intro: string): string[] {
  const root = parseMarkdown(markdown);
  const at = root.children.findIndex((n) => n.type === "paragraph" && markdown.slice(n.position!.start.offset, n.position!.end.offset).startsWith(intro));
  expect(at).toBeGreaterThan(-1);
  const list = root.children[at + 1] as List;
  expect(list.type).toBe("list");
  return list.children.map((item) => {
    let text = "";
    visit(item, (x) => {
      if (x.type === "text" || x.type === "inlineCode") text += x.value;
    });
    return text;
  });
}

test("a published session lists exactly the paths finish accepted, in the summary and the finish line", () => {
  const s = OUTCOMES.done();
  const out = md(s);
  expect(out.summary).toContain("**Published paths** (as finish accepted them; the commit is the base plus exactly these):\n\n- `src/add.js`\n");
  expect(listAfter(out.summary, "**Published paths**")).toEqual(["src/add.js"]);
  expect(out.timeline).toMatch(/- [\d:]+ `finish` · `allow:meta` → allow · ok: accepted on tree \w{12}, publishing 1 path · 40 ms\n/);
  const text = renderReport(s.state, s.events, { sessionId: s.sessionId, format: "text" });
  expect(text.summary).toContain("Published paths (as finish accepted them; the commit is the base plus exactly these):\n\n- `src/add.js`\n");
});

test("a session that ended without finish says nothing was published", () => {
  expect(listAfter(md(OUTCOMES.failed()).summary, "**Paths the session had written** (with file tools or approved commands; nothing was published):")).toEqual([
    "src/add.js",
  ]);
  expect(md(OUTCOMES.failed()).summary).not.toContain("Published paths");
});

test("before finish: what the ledger makes publishable so far, file writes and an approved command's changes together", () => {
  const s = OUTCOMES.parked_writes();
  expect(md(s).summary).not.toContain("Published paths");
  expect(md(s).summary).not.toContain("may publish so far"); // nothing written yet
  s.approveWrites({ login: "maintainer", via: "comment" });
  // The command asks, a human approves its batch, it runs and its changes are kept (call-handler.ts order).
  const command = "npm install left-pad";
  s.step(null, [{ tool: "run_command", args: { command }, decision: "ask", rule: "ask:command", subject: command }]);
  const call = s.lastCallId;
  const digest = hex("batch-2", 64);
  s.add(
    { type: "approval_requested", digest, calls: [{ callId: call, tool: "run_command", input: { command }, preview: command, rule: "ask:command" }] },
    { type: "approval_granted", digest, by: { login: "alice", via: "comment" } },
    { type: "resumed", trigger: "writes approved by @alice" },
    { type: "command_changed", tool: "run_command", paths: ["package.json", "package-lock.json"] },
    {
      type: "tool_result",
      callId: call,
      tool: "run_command",
      toolVersion: "1",
      input: { command },
      result: okResult({ command, exit_code: 0 }),
      durationMs: 700,
    },
    { type: "approval_settled", digest },
  );
  const out = md(s);
  expect(listAfter(out.summary, "**Paths the session may publish so far**")).toEqual(["package-lock.json", "package.json", "src/add.js"]);
  expect(out.summary).toContain("**Kept from approved commands**\n\n- Step 5: `run_command` changed `package.json`, `package-lock.json` — kept, published");
  expect(out.summary).toMatch(/- Batch `\w{12}` \(step 5\): `run_command` `npm install left-pad` — \*\*approved\*\* by @\u2060alice via comment/);
  expect(out.timeline).toMatch(
    /- [\d:]+ `run_command` `npm install left-pad` · `ask:command` → ask · approved by @\u2060alice via comment · ok: exit 0 · 700 ms\n- [\d:]+ changes by `run_command` to 2 files kept \(a human approved the command\), published as they end up: `package.json`, `package-lock.json`\n/,
  );
});

test("every published path up to a hundred, then how many more; odd names stay one literal item each", () => {
  const s = new StoryLedger("sess-many").start();
  const odd = ["a`b.md", "b\n# heading.txt", "@someone/#12.js"];
  const paths = [...odd, ...Array.from({ length: 117 }, (_, i) => `f/${String(i).padStart(3, "0")}.txt`)];
  s.add(
    { type: "command_changed", tool: "run_command", paths },
    { type: "diff_updated", diff: { patch: "", stat: "", filesChanged: 120, insertions: 120, deletions: 0 } },
  );
  const out = md(s);
  const items = listAfter(out.summary, "**Paths the session may publish so far**");
  const sorted = [...paths].sort();
  expect(items).toEqual([...sorted.slice(0, 100).map((p) => p.replace("\n", " ⏎ ")), "… and 20 more"]);
  expect(items.slice(0, 3)).toEqual(["@someone/#12.js", "a`b.md", "b ⏎ # heading.txt"]);
  // A newline in a file name makes no heading of its own.
  const headings: string[] = [];
  visit(parseMarkdown(out.summary), (n) => {
    if (n.type === "heading") headings.push(markdownOf(out.summary, n));
  });
  expect(headings.filter((h) => h.includes("heading.txt"))).toEqual([]);
});

const markdownOf = (text: string, n: { position?: { start: { offset?: number }; end: { offset?: number } } }): string =>
  text.slice(n.position!.start.offset, n.position!.end.offset);
