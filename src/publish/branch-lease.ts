import type { BranchLease } from "../session/state.js";

/**
 * Pushing a session's branch without ever dropping a commit Patchgate did not make. The rule is one
 * function (`judgeRemote`), the protocol one loop (`pushUnderLease`), over a small interface that git
 * implements today (workspace/git-branch-remote.ts) and the Git Data API can implement tomorrow:
 * both offer "set the ref to X only if it is at Y", which is all a lease is.
 */
export interface BranchRemote {
  /** The branch's head on the remote now, with its history available to `dropped`/`contains`; null: no such branch. */
  head(branch: string): Promise<string | null>;
  /** Sets `branch` to `commit` only if it is at `expected` (null: only if it does not exist). */
  update(branch: string, commit: string, expected: string | null): Promise<"updated" | "stale">;
  /** The commits reachable from `head` that `commit` does not contain: what moving the branch to `commit` would drop. */
  dropped(head: string, commit: string): Promise<string[]>;
  /** Whether `ancestor` is in the history of `commit` (false when either is unknown here). */
  contains(commit: string, ancestor: string): Promise<boolean>;
}

export type LeaseOutcome =
  /** The branch now points at the commit. */
  | { kind: "pushed"; commit: string }
  /** The branch is the session's, with commits on it Patchgate did not make: rebuild on `head`. */
  | { kind: "foreign"; head: string; foreign: string[] }
  /** The name is held by something that is not Patchgate's: publish under another name. */
  | { kind: "taken"; head: string };

export type RemoteVerdict = "replace" | "rebuild" | "taken";

/**
 * What to do with a branch whose head is not where the lease expected. Moving it may drop only
 * commits Patchgate pushed itself; anything else is someone's work. If the branch carries any of
 * ours, it is the session's branch that someone added to: rebuild on it. Otherwise the name is taken.
 */
export function judgeRemote(dropped: readonly string[], ours: readonly string[], oursInHead: boolean): RemoteVerdict {
  if (dropped.every((c) => ours.includes(c))) return "replace";
  return oursInHead ? "rebuild" : "taken";
}

/** How often the branch may move between our look and our push before we give up. */
const ATTEMPTS = 3;

/**
 * Moves `lease.branch` to `commit`. A fast-forward from the lease's head is pushed with that head as
 * the expected value. Anything else — the push was refused, or it would replace commits — looks at
 * the branch as it is now and judges it; a replace is pushed with that head as the expected value, so
 * nothing that arrives in between is lost either.
 */
export async function pushUnderLease(remote: BranchRemote, lease: BranchLease, commit: string): Promise<LeaseOutcome> {
  const { branch, ours } = lease;
  let expected = lease.head;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const fastForward = expected === null || (await remote.contains(commit, expected));
    if (fastForward && (await remote.update(branch, commit, expected)) === "updated") return { kind: "pushed", commit };
    const head = await remote.head(branch);
    if (head === null) {
      expected = null;
      continue;
    }
    const dropped = await remote.dropped(head, commit);
    const oursInHead = await someAsync(ours, (o) => remote.contains(head, o));
    const verdict = judgeRemote(dropped, ours, oursInHead);
    if (verdict === "taken") return { kind: "taken", head };
    if (verdict === "rebuild") return { kind: "foreign", head, foreign: dropped.filter((c) => !ours.includes(c)) };
    if ((await remote.update(branch, commit, head)) === "updated") return { kind: "pushed", commit };
    expected = head;
  }
  throw new Error(`${branch} kept moving while Patchgate pushed to it (${ATTEMPTS} attempts); nothing was overwritten`);
}

async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  // Newest first: the last push is the likeliest to be in the branch's history.
  for (const item of [...items].reverse()) if (await test(item)) return true;
  return false;
}

/** `patchgate/issue-7` → `patchgate/issue-7-2` → `patchgate/issue-7-3`… for a name that is taken. */
export function nextBranchName(branch: string, original: string): string {
  const n = branch === original ? 1 : Number(branch.slice(original.length + 1));
  return `${original}-${n + 1}`;
}
