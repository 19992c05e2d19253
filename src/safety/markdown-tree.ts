import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/**
 * GitHub-flavoured markdown as GitHub parses it (CommonMark + GFM, through micromark), with the
 * source offsets of every node, and edits applied to the source by offset. Both directions need to
 * know exactly what GitHub will render — which `<!-- -->` is a comment and which is text inside a
 * code span, where a fenced block inside a quote ends — and a hand-written scanner gets containers
 * wrong in ways that turn into bypasses.
 */
export type { Nodes, Root };

export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export const startOf = (n: Nodes): number => n.position?.start.offset ?? 0;
export const endOf = (n: Nodes): number => n.position?.end.offset ?? 0;

/** Calls `fn` on every node, parents first; `fn` returns false to skip a node's children. */
export function visit(node: Nodes, fn: (n: Nodes) => boolean | void): void {
  if (fn(node) === false) return;
  if ("children" in node) for (const child of node.children) visit(child as Nodes, fn);
}

/**
 * Applies edits by source offset. Edits are collected parents first, so an edit inside a range an
 * earlier edit already replaced is dropped; edits that only touch (a prefix and a suffix around
 * children that have their own edits) all apply.
 */
export function applyEdits(text: string, edits: Edit[]): string {
  if (edits.length === 0) return text;
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}
