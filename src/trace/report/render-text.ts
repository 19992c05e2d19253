import type { Block, Inline } from "./doc.js";
import { singleLine, terminalText } from "./literal.js";
import type { Scrub } from "./render-markdown.js";

/** The same blocks as the check run, as plain text for a terminal (`patchgate show`). */
function inline(x: Inline, scrub: Scrub): string {
  if (typeof x === "string") return singleLine(terminalText(scrub(x)));
  if ("code" in x) return `\`${singleLine(terminalText(scrub(x.code)))}\``;
  if ("strong" in x) return inlines(x.strong, scrub);
  return `${inlines(x.text, scrub)} (${x.link})`;
}

const inlines = (xs: readonly Inline[], scrub: Scrub): string => xs.map((x) => inline(x, scrub)).join("");

const indent = (text: string, pad: string): string =>
  text
    .split("\n")
    .map((l) => (l === "" ? l : pad + l))
    .join("\n");

function table(b: Extract<Block, { kind: "table" }>, scrub: Scrub): string {
  const rows = [b.head, ...b.rows.map((r) => r.map((cell) => inlines(cell, scrub)))];
  const widths = b.head.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? "")].length)));
  const pad = (cell: string, i: number) => (b.right?.[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));
  return rows.map((r) => r.map(pad).join("  ").trimEnd()).join("\n");
}

export function renderText(blocks: readonly Block[], scrub: Scrub): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case "heading": {
        const text = inlines(b.text, scrub);
        out.push(`${text}\n${(b.level === 2 ? "=" : "-").repeat([...text].length)}`);
        break;
      }
      case "para":
        out.push(inlines(b.text, scrub));
        break;
      case "list":
        out.push(b.items.map((item, i) => `${b.ordered ? `${i + 1}.` : "-"} ${inlines(item, scrub)}`).join("\n"));
        break;
      case "tasks":
        out.push(b.items.map((t) => `[${t.done ? "x" : " "}] ${inlines(t.text, scrub)}`).join("\n"));
        break;
      case "table":
        out.push(table(b, scrub));
        break;
      case "code":
        out.push(indent(terminalText(scrub(b.text)), "    "));
        break;
      case "quote":
        out.push(b.lines.map((l) => `  │ ${terminalText(scrub(l))}`).join("\n"));
        break;
      case "details":
        out.push(`▸ ${inlines(b.summary, scrub)}${b.body.length > 0 ? `\n${indent(renderText(b.body, scrub), "  ")}` : ""}`);
        break;
    }
  }
  return out.join("\n\n");
}
