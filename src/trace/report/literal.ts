import { inertReferences } from "../../safety/inert.js";

/**
 * Literal text for each place a rendered body can put it. Model-written words (plan, messages, tool
 * output) arrive here, so each function makes sure they read as the characters they are: no
 * mention, issue reference, autolink, emphasis, list, heading, table cell break, HTML or math.
 */

// A word joiner inside `https://` and `www.` stops GitHub's autolinking while the text reads the same.
const JOINER = "\u2060";
const SCHEME = /\b(https?|ftp|mailto)(?=:)/gi;
const WWW = /\b(www)(?=\.)/gi;

// An HTML comment, or an unterminated one (GitHub hides it to the end of the text).
const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g;

/**
 * No notification, cross-reference or autolink survives; HTML comments are removed, as the outbound
 * gate removes them from all model text (escaped, they would no longer be comments it can see).
 */
export function neutralise(text: string): string {
  return inertReferences(text.replace(HTML_COMMENT, "")).replace(SCHEME, `$1${JOINER}`).replace(WWW, `$1${JOINER}`);
}

/** One line: newlines and tabs become spaces, so inline text can never start a block. */
export function singleLine(text: string): string {
  return text.replace(/[\r\n\t\f\v]+/g, " ");
}

// Characters that open markup anywhere in a line (`$` is math on GitHub, `~` strikethrough, `&` an
// entity, `[` a link or an image, `<` HTML or an autolink).
const INLINE_SPECIAL = /[\\`*_[\]<>!|~&$^]/g;
// What makes a block when it starts a line: a list item, heading, quote, rule or setext underline.
const BLOCK_START = /^()([-+=#>]|\d+[.)])/;

/** Literal text inside markdown (a paragraph, a list item, a table cell). */
export function markdownText(text: string): string {
  return neutralise(singleLine(text)).replace(INLINE_SPECIAL, (c) => `\\${c}`);
}

/** A rendered line whose first characters would start a block gets them escaped. */
export function literalLineStart(line: string): string {
  // Leading spaces go too: four of them would make an indented code block.
  return line.trimStart().replace(BLOCK_START, (_m, space: string, mark: string) => `${space}${mark.replace(/[-+=#>.)]/, (c) => `\\${c}`)}`);
}

const HTML_SPECIAL: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Literal text inside raw HTML (`<summary>`), where markdown is not parsed but entities are. */
export function htmlText(text: string): string {
  return neutralise(singleLine(text)).replace(/[&<>"']/g, (c) => HTML_SPECIAL[c]);
}

// C0 and C1 controls (ESC starts terminal escape sequences), DEL, and bidi/zero-width formatting.
// eslint-disable-next-line no-control-regex -- finding control characters is what this is for
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Text for a terminal: nothing in it can move the cursor, recolour or rewrite what was printed. */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_UNSAFE, "");
}
