import { headUtf8, tailUtf8, utf8Bytes } from "../safety/byte-limit.js";

/**
 * The one bound on text a tool hands back, counted in UTF-8 bytes: the prompt budget, the ledger's
 * rows and GitHub's limits all count bytes, and a count of characters lets text in a multi-byte script
 * grow to four times its budget. The marker still tells the reader how much text is gone, in characters.
 */

/** What one capped field of a result keeps, unless its tool declares another bound. */
export const TOOL_OUTPUT_BYTES = 16 * 1024;

/** A write's diff shown to the human who approves it: a review, so much more than the model gets. */
export const PREVIEW_BYTES = 64 * 1024;

/** Share of the kept bytes given to the head; the tail carries the error and the totals. */
const HEAD_SHARE = 0.25;

export interface CappedOutput {
  text: string;
  truncated: boolean;
}

/**
 * `text` if it fits in `maxBytes`; otherwise its head and tail around a marker saying how much was
 * left out and, when the whole text is kept somewhere, where. Cuts fall on code point boundaries.
 */
export function capOutput(text: string, maxBytes: number, keptIn?: string): CappedOutput {
  if (utf8Bytes(text) <= maxBytes) return { text, truncated: false };
  const head = headUtf8(text, Math.floor(maxBytes * HEAD_SHARE));
  const tail = tailUtf8(text, maxBytes - utf8Bytes(head));
  const omitted = text.length - head.length - tail.length;
  const where = keptIn === undefined ? "" : `; the whole output is kept in ${keptIn}`;
  return { text: `${head}\n… [${omitted} characters omitted${where}] …\n${tail}`, truncated: true };
}
