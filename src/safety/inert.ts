import { inertMarkdown } from "./inert-markdown.js";

/**
 * Model-written text (plan, todos, summaries, failure messages) is shaped by untrusted issue text, so
 * on GitHub it must not act: an `@user` or `@org/team` would notify people, and a `#12` or
 * `owner/repo#12` would cross-reference another thread — or, after a closing keyword in a PR body or
 * a commit message ("fixes #12"), close that issue when the PR merges. A word joiner (U+2060) after
 * the `@`/`#` breaks GitHub's autolinking while the text reads the same. Patchgate's own references
 * (`Resolves #<issue>`, `@<requester>`) are written outside this function and stay live.
 *
 * Raw HTML in model text is escaped and its HTML comments removed here, all of it — the outbound gate
 * (./outbound.ts) lets a few attribute-free tags of Patchgate's own through, which the model must not
 * be able to use to fold part of a plan away; images and foreign links are the gate's to neutralise.
 */
const JOINER = "\u2060";

// Not after a word character: `a@b.com` is an address, not a mention.
const MENTION = /(?<![\w])@(?=[A-Za-z0-9])/g;
// Any `#<digit>`, also after a word (`owner/repo#3` references another repository); `&#39;` is an entity.
const REFERENCE = /(?<!&)#(?=\d)/g;
// `GH-12` is GitHub's other short form of an issue reference.
const GH_REFERENCE = /(?<![\w])GH-(?=\d)/gi;

/** Mentions and issue references only: for text a renderer has already escaped as literal characters. */
export function inertReferences(text: string): string {
  return text
    .replace(MENTION, `@${JOINER}`)
    .replace(REFERENCE, `#${JOINER}`)
    .replace(GH_REFERENCE, (m) => `${m.slice(0, 2)}${JOINER}-`);
}

export function inert(text: string): string {
  return inertReferences(inertMarkdown(text, { htmlOnly: true }));
}
