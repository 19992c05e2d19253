import type { SessionEvent } from "./events.js";
import { addRange } from "./seen-lines.js";
import type { FileContext } from "./types.js";

/**
 * What the agent knows of each file (gate 4, DESIGN §3), from the ledger's reads and writes. A page
 * of the same content adds to the lines seen; a read of changed content starts over; a whole read or
 * a whole write knows everything (`seen` absent).
 */

function previous(contexts: Record<string, FileContext>, rel: string): FileContext | undefined {
  // Own-property lookup: a path such as `constructor` must not find Object.prototype members.
  return Object.prototype.hasOwnProperty.call(contexts, rel) ? contexts[rel] : undefined;
}

export function afterRead(contexts: Record<string, FileContext>, e: Extract<SessionEvent, { type: "file_read" }>, step: number): FileContext {
  const prev = previous(contexts, e.path);
  const same = prev !== undefined && prev.hash === e.hash;
  // Old ledgers carry no lines: their reads were of the whole file.
  const whole = e.lines === undefined || (e.lines[0] <= 1 && e.lines[1] >= (e.totalLines ?? Infinity));
  if (whole || (same && prev.seen === undefined)) return { hash: e.hash, step };
  return { hash: e.hash, step, seen: addRange(same ? (prev.seen ?? []) : [], e.lines!) };
}

export function afterWrite(e: Extract<SessionEvent, { type: "file_written" }>, step: number): FileContext {
  return e.seen === undefined ? { hash: e.hash, step } : { hash: e.hash, step, seen: e.seen.map(([a, b]) => [a, b]) };
}

/**
 * After a move: what the agent knew of `from` is what it knows of `to`, provided it knew the content that
 * moved (a context of other content is stale and goes with nothing). `from` is forgotten, so a later write
 * there is judged as a new file, never against what used to be there.
 */
export function afterMove(contexts: Record<string, FileContext>, e: Extract<SessionEvent, { type: "file_moved" }>): Record<string, FileContext> {
  const known = previous(contexts, e.from);
  const { [e.from]: _from, [e.to]: _to, ...rest } = contexts;
  return known !== undefined && known.hash === e.hash ? { ...rest, [e.to]: known } : rest;
}

/** After a delete: nothing is known of the path any more. */
export function afterDelete(contexts: Record<string, FileContext>, rel: string): Record<string, FileContext> {
  const { [rel]: _gone, ...rest } = contexts;
  return rest;
}
