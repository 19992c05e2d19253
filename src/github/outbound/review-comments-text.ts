import type { ReviewComment } from "../../session/types.js";

/** A code fence longer than any run of backticks in `text`, so the hunk cannot close it. */
function fence(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** The line comments as the task states them: numbered, each with where it is and the hunk it sits on. */
export function reviewCommentsText(comments: readonly ReviewComment[]): string {
  const where = (c: ReviewComment) =>
    c.line === null ? "(outdated line)" : c.startLine !== null && c.startLine !== c.line ? `lines ${c.startLine}–${c.line}` : `line ${c.line}`;
  const items = comments.map((c, i) =>
    [
      `${i + 1}. ${c.path}, ${where(c)}${c.side === "LEFT" ? " of the old version" : ""} — @${c.by} wrote:`,
      c.body,
      "",
      "On this part of the diff:",
      fence(c.hunk) + "diff",
      c.hunk,
      fence(c.hunk),
    ].join("\n"),
  );
  return [`Line comments from the review (${comments.length}); address each of them in one change:`, "", ...items].join("\n\n");
}
