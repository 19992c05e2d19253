import { createHash } from "node:crypto";
import { formatRanges, unseen, type LineRange } from "../session/seen-lines.js";
import type { FileContext, ToolError } from "../session/types.js";

/**
 * Gate 4 (DESIGN §3): the model may only overwrite a file whose current content it has seen. Edits
 * made from a stale or imagined picture of a file are the commonest way an agent destroys code, so the
 * runtime refuses them and tells the model how to recover (read, then retry).
 */

/** sha256 hex; the same function hashes reads, writes and the on-disk check, so they compare. */
export function contentHash(buf: Buffer | string): string {
  return createHash("sha256").update(buf).digest("hex");
}

/**
 * null = the write may go ahead. `currentHash` is the hash of the file on disk now, null when it does
 * not exist (a new file needs no prior read).
 */
export function checkEditContext(contexts: Record<string, FileContext>, rel: string, currentHash: string | null): ToolError | null {
  if (currentHash === null) return null;
  const seen = contextOf(contexts, rel);
  if (seen === undefined) {
    return {
      code: "edit_without_read",
      message: `${rel} exists but you have not read it in this session. Call read_file on ${rel} first, then retry the edit.`,
      details: { path: rel, reason: "never_read" },
    };
  }
  if (seen.hash !== currentHash) {
    return {
      code: "edit_without_read",
      message: `${rel} changed since you read it (at step ${seen.step}). Call read_file on ${rel} again and base the edit on its current content.`,
      details: { path: rel, reason: "changed_since_read", readAtStep: seen.step },
    };
  }
  return null;
}

function contextOf(contexts: Record<string, FileContext>, rel: string): FileContext | undefined {
  // Own-property lookup: a path such as `constructor` must not find Object.prototype members.
  return Object.prototype.hasOwnProperty.call(contexts, rel) ? contexts[rel] : undefined;
}

/**
 * After checkEditContext: a read may have shown only some pages, so the lines a write depends on
 * (those an edit's search texts cover; every line for a whole-file write) must each have been shown
 * since the file last changed. The refusal names what to read.
 */
export function checkLinesSeen(contexts: Record<string, FileContext>, rel: string, need: readonly LineRange[]): ToolError | null {
  const context = contextOf(contexts, rel);
  if (context?.seen === undefined) return null;
  const missing = unseen(context.seen, need);
  if (missing.length === 0) return null;
  const [from, to] = missing[0]!;
  const others = missing.length > 1 ? `, and likewise ${formatRanges(missing.slice(1))}` : "";
  const shown = context.seen.length > 0 ? formatRanges(context.seen) : "none";
  return {
    code: "edit_without_read",
    message:
      `This change to ${rel} depends on lines ${formatRanges(missing)}, which you have not been shown since it last changed (lines shown: ${shown}). ` +
      `Call read_file on ${rel} with start_line ${from} and end_line ${to}${others}, then retry.`,
    details: { path: rel, reason: "lines_not_seen", missing, shown: context.seen },
  };
}
