import { readEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import { shortHash } from "./render.js";

/**
 * Patchgate's comments that ask for an approval, by the effect name they are posted and remembered
 * under (./replies.ts): one name per plan hash, batch digest or test_integrity digest, so a plan submitted again updates
 * its earlier comment instead of posting a new one.
 */
export const planRequest = (hash: string): string => `plan-${shortHash(hash)}`;
export const batchRequest = (digest: string): string => `batch-${shortHash(digest)}`;
export const integrityRequest = (digest: string): string => `integrity-${shortHash(digest)}`;
export const grantRequest = (digest: string): string => `grant-${shortHash(digest)}`;

/**
 * The id GitHub gave the comment session `sessionId` posted as `name` in any of `threads` (a batch is
 * asked for on the PR, or on the issue before there is one), or null when none is remembered. With
 * several, the smallest: each was posted after the request it names, so the earliest is the best witness.
 */
export async function requestCommentId(store: SessionStore, sessionId: string, threads: readonly number[], name: string): Promise<number | null> {
  let found: number | null = null;
  for (const n of new Set(threads)) {
    const id = await readEffect(store, effect.comment(sessionId, n, name));
    if (id !== null && (found === null || id < found)) found = id;
  }
  return found;
}
