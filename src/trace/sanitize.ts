/**
 * Sanitising untrusted GitHub text (issue titles and bodies, comments, review feedback) before it
 * enters a prompt. The aim is that the model reads what a human reviewer sees on github.com: no
 * hidden HTML comments, no invisible or direction-changing characters that smuggle instructions.
 */

/** Enough for any real issue; a longer body is almost always a pasted log or an attack. */
export const MAX_UNTRUSTED_CHARS = 20_000;

// Zero-width and invisible formatting (U+200B–U+200F, U+2060–U+2064, U+FEFF), bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), Unicode tag characters (U+E0000–U+E007F,
// invisible ASCII look-alikes), C0 controls except \t and \n, DEL and C1 controls.
const INVISIBLE =
  /[\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

/** A complete comment, or an unterminated one, which GitHub hides to the end of the text. */
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

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
}

export function sanitizeUntrusted(text: string, opts: SanitizeOptions = {}): string {
  let out = text.replace(/\r\n?/g, "\n");
  // Invisible characters go first: `<!\u200B-- x -->` must not survive as a comment-shaped string
  // whose hidden part then reaches the model.
  out = out.replace(INVISIBLE, "");
  // One pass, like GitHub's renderer: in `<!-<!-- a -->- b -->` only `<!-- a -->` is hidden, and the
  // `<!-- b -->` left behind was visible text on github.com too. (Repeating until stable would also
  // make adversarial nesting quadratic.)
  out = out.replace(HTML_COMMENT, "");
  return capChars(out, opts.maxChars ?? MAX_UNTRUSTED_CHARS);
}
