import type { StoredEvent } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";

/**
 * What an approval approves. A human approves what they saw, so each channel is bound to a
 * plan hash or batch digest: a review to the PR commit it was given on, a button to the hash in its
 * identifier, a comment to the ref it names or else to what it saw asked for (by time, and within the
 * second by comment ids), a label to what existed when it was added. Whatever this returns is then
 * checked against the ledger, which refuses a stale one.
 *
 * Ids order only objects of one sequence. Reviews and label events each have their own, which no
 * comment of Patchgate's belongs to: a review needs none (its commit names the plan exactly), and a
 * label is ordered by its time alone, where a same-second label is asked to be given again.
 */
/**
 * Whether an event (ours: milliseconds) existed when the human acted. GitHub's stamps have whole
 * seconds: `10:05:00Z` is any moment of that second, so only an event from an earlier second surely
 * existed. An event within the same second is taken as not seen — binding to a plan or batch the
 * human may never have seen would break the rule; a stale answer only asks them to approve again.
 * A stamp with a fraction is exact and compared as is.
 */
const existedWhen = (eventAt: string, humanAt: string): boolean => {
  const event = Date.parse(eventAt);
  const human = Date.parse(humanAt);
  return /\.\d+/.test(humanAt) ? event <= human : event < human;
};

/** The last `type` event's value that existed when the human acted (at `at`), or null. */
export function currentAt(history: readonly StoredEvent[], at: string, pick: (e: StoredEvent) => string | null): string | null {
  let found: string | null = null;
  for (const e of history) {
    if (!existedWhen(e.at, at)) break;
    found = pick(e) ?? found;
  }
  return found;
}

/** A human's comment as GitHub has it: its stamp and its id. */
export interface CommentAct {
  at: string;
  commentId: number;
}

/** Patchgate's comments asking for approval: the name a value's request is posted under, and that comment's id. */
export interface RequestComments {
  name(value: string): string;
  id(value: string): Promise<number | null>;
}

/**
 * The last value a comment saw. Within the second of GitHub's stamp, ids tell the order: issue comments
 * (Patchgate's and people's, on issues and PRs alike) share one id sequence that only grows, so a comment
 * with a larger id than Patchgate's request comment was written after it, and after the event it asks
 * about. Only the first event of a name has such a witness: a value asked for again updates the earlier
 * comment, whose id says nothing of the later event. Either proof suffices; without one, not seen.
 */
async function seenBy(
  history: readonly StoredEvent[],
  act: CommentAct,
  pick: (e: StoredEvent) => string | null,
  asked: RequestComments,
): Promise<string | null> {
  const asks = history.flatMap((e) => {
    const value = pick(e);
    return value === null ? [] : [{ at: e.at, value, name: asked.name(value) }];
  });
  for (let i = asks.length - 1; i >= 0; i--) {
    const { at, value, name } = asks[i];
    if (existedWhen(at, act.at)) return value;
    if (asks.findIndex((a) => a.name === name) !== i) continue;
    const request = await asked.id(value);
    if (request !== null && request < act.commentId) return value;
  }
  return null;
}

/**
 * The request a comment decides: the one its `ref` names (the waiting request when the ref is its
 * prefix, else the ref itself, which the reducer then finds stale), or without a ref the newest
 * request of that kind that existed when the comment was written.
 */
async function requestForComment(
  waiting: string | undefined,
  requested: (e: StoredEvent) => string | null,
  history: readonly StoredEvent[],
  ref: string | null,
  act: CommentAct,
  asked: RequestComments,
): Promise<string | null> {
  if (ref) return waiting?.startsWith(ref) ? waiting : ref;
  return seenBy(history, act, requested, asked);
}

/** The request a check-run button names by `<kind>:<prefix>`: the waiting one when it is that, else the prefix itself (stale). */
function requestForButton(waiting: string | undefined, identifier: string, format: RegExp): string | null {
  const m = format.exec(identifier);
  if (!m) return null;
  return waiting?.startsWith(m[1]) ? waiting : m[1];
}

export function planHashForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, act: CommentAct, asked: RequestComments) {
  return requestForComment(s.planHash ?? undefined, (e) => (e.type === "plan_submitted" ? e.hash : null), history, ref, act, asked);
}

export function digestForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, act: CommentAct, asked: RequestComments) {
  return requestForComment(s.pending?.digest, (e) => (e.type === "approval_requested" ? e.digest : null), history, ref, act, asked);
}

export function integrityDigestForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, act: CommentAct, asked: RequestComments) {
  return requestForComment(s.integrity?.digest, (e) => (e.type === "integrity_requested" ? e.digest : null), history, ref, act, asked);
}

export function grantDigestForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, act: CommentAct, asked: RequestComments) {
  return requestForComment(s.grantRequest?.digest, (e) => (e.type === "grant_requested" ? e.digest : null), history, ref, act, asked);
}

/** `approve:<first 12 hex of the plan hash>` — GitHub caps identifiers at 20 characters. */
export function planHashForButton(s: SessionState, identifier: string): string | null {
  return requestForButton(s.planHash ?? undefined, identifier, /^approve:([0-9a-f]{12})$/);
}

/** The test_integrity request the Approve tests button names (../outbound/integrity-button.ts). */
export function integrityDigestForButton(s: SessionState, identifier: string): string | null {
  return requestForButton(s.integrity?.digest, identifier, /^integrity:([0-9a-f]{10})$/);
}

/** The grant request the Allow button names (../outbound/grant-button.ts). */
export function grantDigestForButton(s: SessionState, identifier: string): string | null {
  return requestForButton(s.grantRequest?.digest, identifier, /^grant:([0-9a-f]{14})$/);
}
