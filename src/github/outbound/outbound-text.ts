import { inertMarkdown, type InertOptions } from "../../safety/inert-markdown.js";
import { parseMarkdown, endOf } from "../../safety/markdown-tree.js";
import { redact } from "../../safety/redact.js";
import { headUtf8, utf8Bytes, wellFormed } from "../../safety/byte-limit.js";

/**
 * What every text posted to GitHub becomes, in this order: redacted (known secrets, the app's
 * tokens, credential shapes), made inert (./../safety/inert-markdown.ts), redacted again (removing a
 * comment can join the halves of a token), and cut to GitHub's limit with a visible note. Pure.
 */
export interface Limit {
  max: number;
  unit: "chars" | "bytes";
}

/** GitHub refuses a comment, issue or PR body over 65,536 characters. */
export const BODY_LIMIT: Limit = { max: 65_536, unit: "chars" };
/** A check run's `output.summary` and `output.text`: 65,535 bytes. */
export const CHECK_RUN_LIMIT: Limit = { max: 65_535, unit: "bytes" };
/** PR and check-run titles. */
const TITLE_LIMIT: Limit = { max: 255, unit: "chars" };
/** Commit messages have no documented limit; a bound keeps a runaway summary out of the history. */
export const COMMIT_LIMIT: Limit = { max: 65_536, unit: "chars" };

export interface TextPolicy {
  secrets: readonly string[];
  inert: InertOptions;
  /** Where the whole text can be read when it had to be cut. */
  fullTextHint: string;
}

const size = (text: string, l: Limit): number => (l.unit === "bytes" ? utf8Bytes(text) : text.length);
const head = (text: string, max: number, l: Limit): string => {
  if (l.unit === "bytes") return headUtf8(text, max);
  const cut = text.slice(0, Math.max(0, max));
  // Never end on half a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
};

function clean(text: string, p: TextPolicy): string {
  return redact(inertMarkdown(redact(wellFormed(text), p.secrets), p.inert), p.secrets);
}

/**
 * The longest start of `text` that fits in `max`, ending where a top-level block ends when one does
 * (a cut inside a link or a fence would change how the rest renders); a single block too large for
 * the budget is cut inside, and a fence left open is closed.
 */
function cutAtBlock(text: string, max: number, l: Limit): string {
  const fitting = parseMarkdown(text)
    .children.map(endOf)
    .filter((end) => size(text.slice(0, end), l) <= max);
  if (fitting.length > 0) return text.slice(0, fitting.at(-1));
  const cut = head(text, max - 8, l);
  const fence = /^ {0,3}(`{3,}|~{3,})/m.exec(cut)?.[1];
  return fence && !cut.slice(cut.indexOf(fence) + fence.length).includes(fence) ? `${cut}\n${fence}` : cut;
}

/** Posted text, inert and within `limit` (the room left for a trailing marker is the caller's `reserve`). */
export function outboundText(text: string, limit: Limit, p: TextPolicy, reserve = 0): string {
  const max = limit.max - reserve;
  // Only about a limit's worth of input can survive: the markdown parser's work stays bounded.
  const input = head(text, max * 2, limit);
  const whole = clean(input, p);
  if (input.length === text.length && size(whole, limit) <= max) return whole;
  const note = `\n\n… truncated — full text in ${p.fullTextHint}`;
  let budget = max - size(note, limit);
  for (let attempt = 0; attempt < 5 && budget > 0; attempt++) {
    const out = clean(cutAtBlock(whole, budget, limit), p) + note;
    if (size(out, limit) <= max) return out;
    budget = Math.floor(budget * 0.9);
  }
  return head(note.trim(), max, limit);
}

/** A title: one line, plain. */
export function outboundTitle(text: string, p: TextPolicy): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, " ");
  const out = clean(line, p);
  return size(out, TITLE_LIMIT) <= TITLE_LIMIT.max ? out : `${head(out, TITLE_LIMIT.max - 1, TITLE_LIMIT)}…`;
}

/** GitHub's limit for one create or update of a check run. */
export const MAX_ANNOTATIONS_PER_REQUEST = 50;
/** An annotation's message: "The maximum size is 64 KB". */
const ANNOTATION_MESSAGE_LIMIT: Limit = { max: 64 * 1024, unit: "bytes" };

/**
 * An annotation is shown as plain text beside the diff, so it is redacted and cut, not made inert
 * (there is no markdown to neutralise).
 */
export function annotationText<A extends { message: string; title?: string }>(a: A, p: TextPolicy): A {
  const message = redact(wellFormed(a.message), p.secrets);
  return {
    ...a,
    message:
      size(message, ANNOTATION_MESSAGE_LIMIT) <= ANNOTATION_MESSAGE_LIMIT.max ? message : head(message, ANNOTATION_MESSAGE_LIMIT.max, ANNOTATION_MESSAGE_LIMIT),
    ...(a.title !== undefined ? { title: outboundTitle(a.title, p) } : {}),
  };
}
