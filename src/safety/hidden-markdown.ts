import { applyEdits, endOf, parseMarkdown, startOf, visit, type Edit, type Nodes } from "./markdown-tree.js";

/**
 * Markdown that GitHub does not show a reader but a model would read as text: HTML comments
 * (`<!-- … -->`, including the unterminated kind), link reference definitions (`[//]: # (…)` is the
 * well-known "markdown comment"), image alt text and `<img alt>`, link titles (tooltips), and the
 * tags of raw HTML. Each is removed or reduced to what the page shows, so the model reads what the
 * human reviewer read. Text in code spans and blocks is shown verbatim on GitHub and kept verbatim.
 */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<\/?[A-Za-z][^>]*>?/g;

function edit(n: Nodes, text: string): Edit {
  return { start: startOf(n), end: endOf(n), text };
}

/** Where a link's `](url "title")` begins: after its last child, or just after `[` when it has none. */
function suffixStart(n: Nodes & { children: Nodes[] }): number {
  const last = n.children.at(-1);
  return last ? endOf(last) : startOf(n) + 1;
}

export function stripHiddenMarkdown(text: string): string {
  const edits: Edit[] = [];
  visit(parseMarkdown(text), (n) => {
    switch (n.type) {
      case "definition":
        edits.push(edit(n, ""));
        return false;
      case "image":
      case "imageReference":
        edits.push(edit(n, "[image]"));
        return false;
      case "link":
        // `[text](url "title")` keeps `[text](url)`; an autolink has no title.
        if (n.title) edits.push({ start: suffixStart(n), end: endOf(n), text: `](${n.url})` });
        return;
      case "html":
        edits.push(edit(n, n.value.replace(COMMENT, "").replace(TAG, "")));
        return false;
      case "text": {
        // A `<!--` that never ends is text to CommonMark, but the old rule (and the safe one) is
        // that nothing after it reaches the model.
        const source = text.slice(startOf(n), endOf(n));
        const cut = source.indexOf("<!--");
        if (cut >= 0) edits.push({ start: startOf(n) + cut, end: text.length, text: "" });
        return;
      }
      default:
        return;
    }
  });
  return applyEdits(text, edits);
}
