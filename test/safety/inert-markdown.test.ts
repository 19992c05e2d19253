import { inertMarkdown } from "../../src/safety/inert-markdown.js";

const OWN = "https://github.com/octo-org/calculator";
const inert = (md: string) => inertMarkdown(md, { ownUrl: OWN, allowTags: ["sub"] });

describe("inert markdown", () => {
  test("an image becomes its alt text and its URL as code", () => {
    expect(inert("a ![s](https://x.example/p.png?d=1) b")).toBe("a image `s` from `https://x.example/p.png?d=1` b");
  });
  test("raw HTML is shown, not rendered; an allowed attribute-free tag stays", () => {
    expect(inert('<img src="https://x.example/p.png">')).toBe('`<img src="https://x.example/p.png">`');
    expect(inert("<sub>note</sub> <sub onclick=x>no</sub>")).toBe("<sub>note</sub> `<sub onclick=x>`no</sub>");
  });
  test("HTML comments are removed", () => expect(inert("a <!-- hidden --> b")).toBe("a  b"));
  test("a foreign link keeps its text and shows the URL as code", () => {
    expect(inert("[docs](https://x.example/d)")).toBe("docs (`https://x.example/d`)");
  });
  test("a link into the repository itself stays a link (its title dropped)", () => {
    expect(inert(`[PR](${OWN}/pull/2)`)).toBe(`[PR](${OWN}/pull/2)`);
    expect(inert(`[PR](${OWN}/pull/2 "tip")`)).toBe(`[PR](${OWN}/pull/2)`);
    expect(inert(`${OWN}/pull/2`)).toBe(`${OWN}/pull/2`);
  });
  test("a look-alike of the repository is foreign", () => {
    expect(inert(`[x](${OWN}-evil/a)`)).toBe(`x (\`${OWN}-evil/a\`)`);
    expect(inert(`[x](${OWN}/../../evil/a)`)).toBe(`x (\`${OWN}/../../evil/a\`)`);
  });
  test.each([
    ["bare URL", "see https://x.example/a", "see `https://x.example/a`"],
    ["www", "see www.x.example", "see `www.x.example`"],
    ["angle brackets", "see <https://x.example/a>", "see `https://x.example/a`"],
    ["address", "mail a@x.example", "mail `a@x.example`"],
  ])("an autolink (%s) becomes code", (_what, md, out) => expect(inert(md)).toBe(out));
  test("link text that is itself a URL is made inert on the next pass", () => {
    expect(inert("[https://x.example](https://x.example)")).toBe("`https://x.example` (`https://x.example`)");
  });
  test("a reference definition is shown, and its references are links like any other", () => {
    expect(inert("use [x][r]\n\n[r]: https://x.example")).toBe("use x (`https://x.example`)\n\n`[r]: https://x.example`");
  });
  test("code spans and blocks are left exactly as they are", () => {
    const md = "`<img src=x>` and\n\n```\n![a](https://x.example) <!-- c -->\n```";
    expect(inert(md)).toBe(md);
  });
  test("a fence inside a quote ends with the quote: what follows renders, and is made inert", () => {
    expect(inert("> ```\n> code\n![i](https://x.example/i)")).toBe("> ```\n> code\nimage `i` from `https://x.example/i`");
  });
  test("plain text is returned as it is", () => expect(inert("Fixed the bug; 12 tests pass.")).toBe("Fixed the bug; 12 tests pass."));
});
