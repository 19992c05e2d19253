/**
 * A small document model for what Patchgate tells a reviewer about a session. The summary and the
 * timeline are built once as blocks and rendered twice: GitHub markdown for the check run and plain
 * text for the terminal (`patchgate show`), so both readers see the same facts in the same order.
 *
 * Every string in it is literal text: a renderer escapes it for where it lands (markdown, HTML inside
 * `<summary>`, a terminal). Nothing a model wrote can become markup on the way out.
 */
export type Inline = string | { code: string } | { strong: Inline[] } | { link: string; text: Inline[] };

export type Block =
  | { kind: "heading"; level: 2 | 3; text: Inline[] }
  | { kind: "para"; text: Inline[] }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "tasks"; items: { done: boolean; text: Inline[] }[] }
  | { kind: "table"; head: string[]; right?: boolean[]; rows: Inline[][][] }
  | { kind: "code"; text: string }
  /** Someone's own words (the model's message), quoted line by line. */
  | { kind: "quote"; lines: string[] }
  | { kind: "details"; summary: Inline[]; body: Block[] };

export const code = (text: string): Inline => ({ code: text });
export const strong = (...text: Inline[]): Inline => ({ strong: text });
export const link = (url: string, ...text: Inline[]): Inline => ({ link: url, text });

export const heading = (level: 2 | 3, ...text: Inline[]): Block => ({ kind: "heading", level, text });
export const para = (...text: Inline[]): Block => ({ kind: "para", text });
export const bullets = (items: Inline[][]): Block => ({ kind: "list", ordered: false, items });
export const numbered = (items: Inline[][]): Block => ({ kind: "list", ordered: true, items });
export const details = (summary: Inline[], body: Block[]): Block => ({ kind: "details", summary, body });

// A CommonMark code span: a run of backticks, content, the same run again.
const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/**
 * Model-written prose with its code spans kept as code (GitHub renders nothing inside them, so they
 * are safe) and everything else literal text.
 */
export function withCode(text: string): Inline[] {
  const out: Inline[] = [];
  let at = 0;
  for (const m of text.matchAll(CODE_SPAN)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const inner = m[2];
    out.push(code(/^ .* $/.test(inner) && inner.trim() !== "" ? inner.slice(1, -1) : inner));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** `parts` joined by `sep`, for building one line out of several phrases. */
export function joined(parts: Inline[][], sep: Inline): Inline[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [sep, ...p]));
}

/** The plain words of inline content (titles, annotation messages, lengths). */
export function plainText(inl: readonly Inline[]): string {
  return inl.map((x) => (typeof x === "string" ? x : "code" in x ? x.code : "strong" in x ? plainText(x.strong) : plainText(x.text))).join("");
}
