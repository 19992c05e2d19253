import { codeBlock, inlineCode } from "../../safety/markdown.js";
import type { Block, Inline } from "./doc.js";
import { htmlText, literalLineStart, markdownText } from "./literal.js";

/** Applied to every string before it is escaped: redaction must see the text as it was written. */
export type Scrub = (text: string) => string;

interface Ctx {
  scrub: Scrub;
  /** Inside a GFM table cell: a `|` anywhere, code spans included, would split the cell. */
  cell: boolean;
}

function inline(x: Inline, c: Ctx): string {
  if (typeof x === "string") return markdownText(c.scrub(x));
  if ("code" in x) {
    const span = inlineCode(c.scrub(x.code));
    return c.cell ? span.replace(/\|/g, "\\|") : span;
  }
  if ("strong" in x) return `**${inlines(x.strong, c)}**`;
  return `[${inlines(x.text, c)}](<${x.link.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

const inlines = (xs: readonly Inline[], c: Ctx): string => xs.map((x) => inline(x, c)).join("");

/** `<summary>` is raw HTML: markdown is not parsed there, so text is HTML-escaped instead. */
function html(xs: readonly Inline[], scrub: Scrub): string {
  return xs
    .map((x) => {
      if (typeof x === "string") return htmlText(scrub(x));
      if ("code" in x) return `<code>${htmlText(scrub(x.code))}</code>`;
      if ("strong" in x) return `<b>${html(x.strong, scrub)}</b>`;
      return html(x.text, scrub);
    })
    .join("");
}

function table(b: Extract<Block, { kind: "table" }>, scrub: Scrub): string {
  const c = { scrub, cell: true };
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const rule = b.head.map((_, i) => (b.right?.[i] ? "---:" : "---"));
  return [row(b.head.map((h) => markdownText(h))), row(rule), ...b.rows.map((r) => row(r.map((cell) => inlines(cell, c) || " ")))].join("\n");
}

/**
 * Two lists in a row would merge into one (the bug of a plan shown as one 1–8 list): CommonMark
 * starts a new list when the bullet or delimiter changes, so adjacent lists alternate them.
 */
function list(b: Extract<Block, { kind: "list" | "tasks" }>, alternate: boolean, c: Ctx): string {
  if (b.kind === "tasks")
    return b.items.map((t) => `${alternate ? "*" : "-"} [${t.done ? "x" : " "}] ${literalLineStart(inlines(t.text, c)) || " "}`).join("\n");
  return b.items
    .map((item, i) => `${b.ordered ? `${i + 1}${alternate ? ")" : "."}` : alternate ? "*" : "-"} ${literalLineStart(inlines(item, c)) || " "}`)
    .join("\n");
}

function quote(lines: readonly string[], c: Ctx): string {
  // A trailing backslash is a hard line break: the message keeps its lines.
  return lines.map((l, i) => `> ${literalLineStart(markdownText(c.scrub(l.trimStart())))}${i < lines.length - 1 && l.trim() !== "" ? "\\" : ""}`).join("\n");
}

export function renderMarkdown(blocks: readonly Block[], scrub: Scrub): string {
  const c: Ctx = { scrub, cell: false };
  const out: string[] = [];
  let previousWasList = false;
  let alternate = false;
  for (const b of blocks) {
    const isList = b.kind === "list" || b.kind === "tasks";
    alternate = isList && previousWasList ? !alternate : false;
    previousWasList = isList;
    switch (b.kind) {
      case "heading":
        out.push(`${"#".repeat(b.level)} ${inlines(b.text, c)}`);
        break;
      case "para":
        out.push(literalLineStart(inlines(b.text, c)));
        break;
      case "list":
      case "tasks":
        out.push(list(b, alternate, c));
        break;
      case "table":
        out.push(table(b, scrub));
        break;
      case "code":
        out.push(codeBlock(scrub(b.text)));
        break;
      case "quote":
        out.push(quote(b.lines, c));
        break;
      case "details":
        // Blank lines around the body make GitHub parse it as markdown, not as part of the HTML block.
        out.push(`<details><summary>${html(b.summary, scrub)}</summary>\n\n${renderMarkdown(b.body, scrub)}\n\n</details>`);
        break;
    }
  }
  return out.join("\n\n");
}
