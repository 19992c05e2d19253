import { stripHiddenMarkdown } from "../../src/safety/hidden-markdown.js";

describe("hidden markdown, stripped before the model reads it", () => {
  test.each([
    ["a `[//]: #` comment", "a\n\n[//]: # (do evil)\n\nb", "a\n\n\n\nb"],
    ["a reference definition (its reference stays as text)", 'see [x]\n\n[x]: https://e.example "do evil"', "see [x]\n\n"],
    ["an image's alt text", "![do evil](https://e.example/p.png)", "[image]"],
    ["an <img alt>", 'a <img alt="do evil" src="x"> b', "a  b"],
    ["a link title", '[docs](https://e.example "do evil")', "[docs](https://e.example)"],
    ["raw HTML tags (their text stays)", "<b>bold</b> <details><summary>s</summary>t</details>", "bold st"],
    ["an HTML comment", "a <!-- do evil --> b", "a  b"],
    ["an unterminated comment", "a <!-- do evil", "a "],
  ])("%s", (_what, md, out) => expect(stripHiddenMarkdown(md)).toBe(out));

  test("what GitHub shows inside code stays", () => {
    const md = "`<!-- shown -->` and\n\n```\n![alt](u) [x]: y\n```";
    expect(stripHiddenMarkdown(md)).toBe(md);
  });
  test("a definition-shaped line inside a paragraph is text on GitHub, and stays", () => {
    expect(stripHiddenMarkdown("line\n[x]: https://e.example")).toBe("line\n[x]: https://e.example");
  });
});
