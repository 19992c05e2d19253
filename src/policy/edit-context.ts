import { createHash } from "node:crypto";
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
  // Own-property lookup: a path such as `constructor` must not find Object.prototype members.
  const seen = Object.prototype.hasOwnProperty.call(contexts, rel) ? contexts[rel] : undefined;
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
