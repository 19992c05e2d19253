/**
 * Sanitising untrusted GitHub text (issue titles and bodies, comments, review feedback, names shown
 * to the model) before it enters a prompt. The aim is that the model reads what a human reviewer sees
 * on github.com: no invisible or direction-changing characters that smuggle instructions, and none of
 * the markdown that GitHub renders as nothing (./hidden-markdown.ts).
 */
import { stripHiddenMarkdown } from "./hidden-markdown.js";

/** Enough for any real issue; a longer body is almost always a pasted log or an attack. */
export const MAX_UNTRUSTED_CHARS = 20_000;

// Zero-width and invisible formatting (U+200B–U+200F, U+2060–U+2065, U+FEFF, U+061C), bidi
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), Unicode tag characters
// (U+E0000–U+E007F, invisible ASCII look-alikes), variation selectors (U+FE00–U+FE0F,
// U+E0100–U+E01EF: a run of them can encode arbitrary bytes), fillers and joiners that render as
// nothing (soft hyphen U+00AD, combining grapheme joiner U+034F, Hangul fillers U+115F, U+1160,
// U+3164, U+FFA0, Khmer U+17B4–U+17B5, Mongolian U+180B–U+180F, musical U+1D173–U+1D17A,
// interlinear annotation U+FFF9–U+FFFB), C0 controls except \t and \n, DEL and C1 controls.
// Each code point is listed on its own, combining ones included: that is what this class must match.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- see above
  /[\u200B-\u200F\u2060-\u2065\uFEFF\u061C\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u00AD\u034F\u115F\u1160\u3164\uFFA0\u17B4\u17B5\u180B-\u180F\u{1D173}-\u{1D17A}\uFFF9-\uFFFB\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

/** Line and paragraph separators (U+2028, U+2029) are line breaks that look like none. */
const SEPARATORS = /[\u2028\u2029]/g;

/** Cuts at a code point boundary so that a surrogate pair is never split. */
function capChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const omitted = text.length - end;
  return `${text.slice(0, end)}\n[… ${omitted} characters of untrusted input truncated]`;
}

export interface SanitizeOptions {
  maxChars?: number;
  /** False for text GitHub shows as plain text (titles, branch and file names): only characters are removed. */
  markdown?: boolean;
}

/** Only this much is parsed: the rest would be cut anyway, and the parser's work stays bounded. */
const PARSE_FACTOR = 4;

export function sanitizeUntrusted(text: string, opts: SanitizeOptions = {}): string {
  const max = opts.maxChars ?? MAX_UNTRUSTED_CHARS;
  // Invisible characters go first: `<!\u200B-- x -->` must not survive as a comment-shaped string
  // whose hidden part then reaches the model.
  let out = text.replace(/\r\n?/g, "\n").replace(INVISIBLE, "").replace(SEPARATORS, "\n");
  if (opts.markdown !== false) out = stripHiddenMarkdown(out.slice(0, max * PARSE_FACTOR));
  return capChars(out, max);
}

/** Names shown to the model (branches, file paths): characters only, no markdown. */
export function sanitizeName(name: string): string {
  return sanitizeUntrusted(name, { markdown: false, maxChars: 1000 });
}
