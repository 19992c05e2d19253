import type { StoredEvent } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";

/**
 * What an approval approves. A human approves what they saw, so each channel is bound to a
 * plan hash or batch digest: a review or label to the PR commit it was given on, a button to the
 * hash in its identifier, a comment to the ref it names or else to what was current when it was
 * written. Whatever this returns is then checked against the ledger, which refuses a stale one.
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

export function planHashForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, at: string): string | null {
  if (ref) return s.planHash?.startsWith(ref) ? s.planHash : ref;
  return currentAt(history, at, (e) => (e.type === "plan_submitted" ? e.hash : null));
}

export function digestForComment(s: SessionState, history: readonly StoredEvent[], ref: string | null, at: string): string | null {
  if (ref) return s.pending?.digest.startsWith(ref) ? s.pending.digest : ref;
  return currentAt(history, at, (e) => (e.type === "approval_requested" ? e.digest : null));
}

/** `approve:<first 12 hex of the plan hash>` — GitHub caps identifiers at 20 characters. */
export function planHashForButton(s: SessionState, identifier: string): string | null {
  const m = /^approve:([0-9a-f]{12})$/.exec(identifier);
  if (!m) return null;
  return s.planHash?.startsWith(m[1]) ? s.planHash : m[1];
}
