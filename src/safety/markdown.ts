/**
 * Markdown helpers for text that ends up in GitHub bodies. Content is model- or user-generated, so
 * it must not be able to break out of the table cell or code block it is placed in.
 */

/** Newlines (any convention) become one visible mark, so a value always stays on one line. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, " ⏎ ").replace(/[\t\f\v]/g, " ");
}

/** At most `max` code points, with an ellipsis when cut. Never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text; // code units ≥ code points
  // Walk code points only as far as needed: the text may be a megabyte of tool output.
  let points = 0;
  let offset = 0;
  let keepEnd = 0;
  for (const ch of text) {
    points += 1;
    if (points > max) return `${text.slice(0, keepEnd)}…`;
    offset += ch.length;
    if (points === max - 1) keepEnd = offset;
  }
  return text;
}

/** A fenced code block whose fence is longer than any backtick run inside, so content cannot close it. */
export function codeBlock(text: string, lang = ""): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** Inline code that survives backticks in the content. */
export function inlineCode(text: string): string {
  const single = oneLine(text);
  const longest = Math.max(0, ...Array.from(single.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = single.startsWith("`") || single.endsWith("`") ? " " : "";
  return `${ticks}${pad}${single}${pad}${ticks}`;
}

/** Compact human numbers for summaries: 1234567 → "1,234,567". */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** USD with enough digits to show cents-or-less costs honestly. */
export function formatUsd(n: number): string {
  return n >= 1 ? `$${n.toFixed(2)}` : `$${n.toFixed(4)}`;
}
