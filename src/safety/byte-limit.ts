/**
 * Byte limits. GitHub rejects a check run whose output summary or text exceeds 65535 characters
 * (measured in bytes by the API in practice), so every outbound body is measured in UTF-8 bytes and
 * cut at a code point boundary: a cut never splits a multi-byte character or a surrogate pair.
 */

/** GitHub's limit for a check run's `output.summary` and `output.text`. */
export const CHECK_RUN_MAX_BYTES = 65535;

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Lone surrogates become U+FFFD, so that the string's UTF-8 encoding round-trips exactly. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

/** The longest prefix of `text` that fits in `maxBytes`. */
export function headUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(wellFormed(text), "utf8");
  if (buf.length <= maxBytes) return buf.toString("utf8");
  let end = Math.max(0, maxBytes);
  // Back off to the start of the character the limit falls into.
  while (end > 0 && isContinuation(buf[end])) end -= 1;
  return buf.subarray(0, end).toString("utf8");
}

/** The longest suffix of `text` that fits in `maxBytes`. */
export function tailUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(wellFormed(text), "utf8");
  if (buf.length <= maxBytes) return buf.toString("utf8");
  let start = buf.length - Math.max(0, maxBytes);
  // Move forward past the continuation bytes of a character that started before the limit.
  while (start < buf.length && isContinuation(buf[start])) start += 1;
  return buf.subarray(start).toString("utf8");
}

/**
 * `text` if it fits; otherwise its head plus `marker`, together at most `maxBytes`. A marker larger
 * than the budget is itself cut, so the bound holds whatever the inputs.
 */
export function truncateUtf8(text: string, maxBytes: number, marker = "\n\n… truncated"): string {
  const safe = wellFormed(text);
  if (utf8Bytes(safe) <= maxBytes) return safe;
  const markerBytes = utf8Bytes(marker);
  if (markerBytes >= maxBytes) return headUtf8(marker, maxBytes);
  return headUtf8(safe, maxBytes - markerBytes) + marker;
}

/** Share of the kept bytes given to the head; the rest goes to the tail. */
const HEAD_SHARE = 0.6;

export interface CappedText {
  text: string;
  truncated: boolean;
}

/**
 * `text` if it fits in `maxBytes` (UTF-8); otherwise head + a `[truncated …]` marker + tail, the
 * whole at most `maxBytes`. Cuts fall on code point boundaries.
 */
export function capText(text: string, maxBytes: number, note = ""): CappedText {
  const total = utf8Bytes(text);
  if (total <= maxBytes) return { text, truncated: false };
  // The marker's own length depends on the count it reports; size it for the largest count.
  const markerFor = (omitted: number): string => `\n…[truncated: ${omitted} of ${total} bytes omitted${note}]…\n`;
  const room = Math.max(0, maxBytes - utf8Bytes(markerFor(total)));
  const head = headUtf8(text, Math.floor(room * HEAD_SHARE));
  const tail = tailUtf8(text, room - utf8Bytes(head));
  const omitted = total - utf8Bytes(head) - utf8Bytes(tail);
  const out = head + markerFor(omitted) + tail;
  // Only a budget smaller than the marker itself can overflow; then the marker alone, cut, is the answer.
  return { text: utf8Bytes(out) <= maxBytes ? out : headUtf8(markerFor(omitted), maxBytes), truncated: true };
}
