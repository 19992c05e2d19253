import { type Harness } from "../../harness/harness.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * An issue body carries text GitHub does not show its reader. None of it may reach the model: the
 * first model request is what the model reads of the issue.
 */
const HIDDEN: [string, string][] = [
  ["a `[//]: #` comment", "[//]: # (HIDDEN-DEFCOMMENT)"],
  ["a link reference definition", '[ref]: https://example.com/x "HIDDEN-DEFTITLE"'],
  ["an <img alt>", '<img src="https://example.com/p.png" alt="HIDDEN-IMGALT">'],
  ["an image's alt text", "![HIDDEN-MDALT](https://example.com/p.png)"],
  ["a link title", '[the docs](https://example.com/docs "HIDDEN-LINKTITLE")'],
  ["an HTML comment", "<!-- HIDDEN-COMMENT -->"],
];
const INVISIBLE: [string, string][] = [
  ["variation selector U+FE0F", "\uFE0F"],
  ["variation selector U+FE00", "\uFE00"],
  ["variation selector supplement U+E0100", "\u{E0100}"],
  ["variation selector supplement U+E01EF", "\u{E01EF}"],
  ["soft hyphen U+00AD", "\u00AD"],
  ["Mongolian vowel separator U+180E", "\u180E"],
  ["Hangul filler U+3164", "\u3164"],
  ["Hangul choseong filler U+115F", "\u115F"],
  ["combining grapheme joiner U+034F", "\u034F"],
  ["line separator U+2028", "\u2028"],
];

describe("hidden text in an issue body", () => {
  let h: Harness;
  let firstRequest: string;
  beforeAll(async () => {
    h = await storyHarness();
    const body = [
      "`add(2, 3)` returns -1.",
      "",
      ...HIDDEN.map(([, t]) => `${t}\n`),
      `Smuggled: x${INVISIBLE.map(([, c]) => c).join("y")}z`,
      "",
      "See [ref] too.",
    ].join("\n");
    await h.send(
      "issue_comment",
      h.payloads.comment({ number: 1, title: "add\u00AD() subtracts", issueBody: body, body: "/agent fix this", by: "maintainer" }),
    );
    await h.settle();
    firstRequest = JSON.stringify(h.openai.requests[0].body.messages);
  });
  afterAll(() => h.close());

  test("the issue reached the model", () => {
    expect(firstRequest).toContain("returns -1.");
    expect(firstRequest).toContain("the docs");
    expect(h.app.errors).toEqual([]);
  });

  test.each(HIDDEN)("%s is absent from the first model request", (_what, text) => {
    expect(firstRequest).not.toContain(/HIDDEN-[A-Z]+/.exec(text)![0]);
  });

  test.each(INVISIBLE)("%s is absent from the first model request", (_what, char) => {
    // JSON.stringify leaves these characters as they are (U+2028 included), so the check is exact.
    expect(firstRequest).not.toContain(char);
  });
});
