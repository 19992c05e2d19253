import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The README is the front door: short enough to read on arrival, with a link to every page of docs/,
 * and no link in the documentation that leads nowhere — a relative link names a file that exists,
 * and its `#anchor` a heading of that file as GitHub slugs it.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");
const docsPages = readdirSync(path.join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`);
const documents = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "SECURITY.md", ...docsPages];

/** Text outside fenced code blocks, where a bracket pair is code rather than a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "");
}

/** Relative link targets of a document (external and mail links are someone else's to keep). */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t));
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes. */
function anchors(markdown: string): Set<string> {
  const slugs = [...prose(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-"),
  );
  return new Set(slugs);
}

test("the README is at most 250 lines", () => {
  expect(read("README.md").split("\n").length).toBeLessThanOrEqual(250);
});

test("the README links every page of docs/ and ARCHITECTURE.md on its first screen", () => {
  const readme = read("README.md");
  const linked = new Set(relativeLinks(readme).map((t) => t.split("#")[0]));
  expect(docsPages.length).toBeGreaterThan(5);
  expect(docsPages.filter((p) => !linked.has(p))).toEqual([]);
  const firstScreen = readme.split("\n").slice(0, 25).join("\n");
  expect(relativeLinks(firstScreen)).toContain("ARCHITECTURE.md");
});

test.each(documents)("every relative link in %s resolves to a file and a heading", (doc) => {
  const broken: string[] = [];
  for (const target of relativeLinks(read(doc))) {
    const [file, anchor] = target.split("#");
    const resolved = file === "" ? doc : path.normalize(path.join(path.dirname(doc), file));
    if (!existsSync(path.join(ROOT, resolved))) broken.push(`${target} (no file ${resolved})`);
    else if (anchor !== undefined && resolved.endsWith(".md") && !anchors(read(resolved)).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
  }
  expect(broken).toEqual([]);
});
