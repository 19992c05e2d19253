import type { List, Nodes, Table } from "mdast";
import { parseMarkdown, visit } from "../../src/safety/markdown-tree.js";
import { renderCheckRun } from "../../src/trace/check-run.js";
import { OUTCOMES } from "./fixtures/outcomes.js";
import { PLAN } from "./fixtures/story-ledger.js";

/**
 * The rendered markdown read back by a real CommonMark + GFM parser (micromark, as GitHub parses):
 * the structure a reviewer sees is the one the renderer meant — lists not merged, every <details>
 * closed, tables with one cell per column on every row.
 */
function nodes(md: string): Nodes[] {
  const all: Nodes[] = [];
  visit(parseMarkdown(md), (n) => {
    all.push(n);
  });
  return all;
}

const textOf = (n: Nodes): string => {
  let out = "";
  visit(n, (x) => {
    if (x.type === "text" || x.type === "inlineCode") out += x.value;
  });
  return out;
};

/** `<details>` opened and closed in order, never closing one that is not open. */
function detailsBalance(md: string): { opened: number; balanced: boolean } {
  let depth = 0;
  let opened = 0;
  let balanced = true;
  for (const n of nodes(md)) {
    if (n.type !== "html") continue;
    for (const tag of n.value.matchAll(/<(\/?)details>/g)) {
      if (tag[1]) depth -= 1;
      else {
        depth += 1;
        opened += 1;
      }
      if (depth < 0) balanced = false;
    }
  }
  return { opened, balanced: balanced && depth === 0 };
}

/** Every row of every table has exactly as many cells in the source as the header has columns. */
function tablesWellFormed(md: string): number {
  let tables = 0;
  for (const n of nodes(md)) {
    if (n.type !== "table") continue;
    tables += 1;
    const t = n as Table;
    const columns = t.children[0].children.length;
    const lines = md.slice(t.position!.start.offset, t.position!.end.offset).split("\n");
    for (const line of lines) expect(line.replace(/\\\|/g, "").split("|").length - 2).toBe(columns);
    for (const row of t.children) expect(row.children).toHaveLength(columns);
  }
  return tables;
}

describe.each(Object.keys(OUTCOMES))("the %s report parsed as GFM", (outcome) => {
  const s = OUTCOMES[outcome]();
  const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
  // Blocked ends before the first model call: no plan, no todos.
  const planned = outcome !== "blocked";

  test("the plan's steps are one ordered list of exactly its steps; no other ordered list", () => {
    const ordered = nodes(out.summary).filter((n): n is List => n.type === "list" && n.ordered === true);
    expect(ordered).toHaveLength(planned ? 1 : 0);
    if (!planned) return;
    expect(ordered[0].children.map(textOf)).toEqual(PLAN.steps.map((step) => step.replace(/`/g, "")));
    // The summary repeated the steps: its prose kept only what was not a step.
    const paragraphs = parseMarkdown(out.summary)
      .children.filter((n) => n.type === "paragraph")
      .map(textOf);
    expect(paragraphs).toContain("add() subtracts instead of adding. I will:");
    expect(paragraphs.filter((p) => p.includes("Change a - b"))).toEqual([]);
  });

  test("no two lists of the summary merged: each list is one section's", () => {
    const lists = nodes(out.summary).filter((n): n is List => n.type === "list");
    for (const l of lists) expect(l.spread).toBe(false);
    const todoLists = lists.filter((l) => l.children.some((i) => i.checked !== null && i.checked !== undefined));
    expect(todoLists.map((l) => l.children.length)).toEqual(planned ? [2] : []);
  });

  test("every <details> of the timeline is closed, one per step, and nothing else is HTML", () => {
    expect(detailsBalance(out.text)).toEqual({ opened: s.state.step + 1, balanced: true });
    expect(detailsBalance(out.summary)).toEqual({ opened: 0, balanced: true });
    const html = nodes(out.text)
      .filter((n) => n.type === "html")
      .map((n) => (n as { value: string }).value.replace(/<summary>.*<\/summary>/, "<summary>…</summary>"));
    expect(new Set(html)).toEqual(new Set(["<details><summary>…</summary>", "</details>"]));
  });

  test("tables are well formed; model text produced no image, link or HTML", () => {
    expect(tablesWellFormed(out.summary)).toBe(outcome === "done" || outcome === "failed" ? 1 : 0);
    const all = [...nodes(out.summary), ...nodes(out.text)];
    expect(all.filter((n) => n.type === "image" || n.type === "imageReference")).toEqual([]);
    const links = all.filter((n) => n.type === "link").map((n) => (n as { url: string }).url);
    expect(links.every((u) => u.startsWith("https://github.com/octo-org/calculator/pull/2"))).toBe(true);
    expect(out.text).not.toMatch(/@someone|#12\b|https:\/\/evil/);
  });
});

test("the check can fail: a summary that repeats its steps, rendered as plain markdown, merges into one 1–4 list", () => {
  const naive = `${PLAN.summary.split("\n\n")[0]}\n\n${PLAN.steps.map((x, i) => `${i + 1}. ${x}`).join("\n")}`;
  const ordered = nodes(naive).filter((n): n is List => n.type === "list" && n.ordered === true);
  expect(ordered.map((l) => l.children.length)).toEqual([4]);
});
