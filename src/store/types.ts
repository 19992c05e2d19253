import type { SessionEvent, StoredEvent } from "../session/events.js";
import type { Phase } from "../session/types.js";
import { FatalError } from "../errors/index.js";
import type { LedgerLink } from "./ledger-chain.js";
import type { Spend } from "../policy/spend-ceiling.js";
import type { InstallationSpend, SandboxRunCount, SpendScope, StartsScope } from "./ledger-views.js";

export interface SessionSummary {
  id: string;
  /** Lookup key, e.g. "owner/repo#12" for a GitHub issue; null for local runs. */
  key: string | null;
  phase: Phase;
  createdAt: string;
  updatedAt: string;
}

/**
 * A webhook delivery as the inbox keeps it: what a restarted process needs to act on it again.
 * `event` is the `X-GitHub-Event` header (the action is in the payload); `payload` the JSON body.
 */
export interface InboxDelivery {
  id: string;
  event: string;
  payload: string;
}

/**
 * Where a delivery stands in the inbox when it arrives: `new` (first time), `pending` (seen, its work
 * not finished — a crash, or still running: act on it), `done` (its effects are recorded: a no-op).
 */
export type DeliveryState = "new" | "pending" | "done";

/** Where an append lands: the count it expects (optimistic lock) and the phase the events lead to. */
export interface AppendAt {
  expectedCount?: number;
  phase: Phase;
}

/** Durable, append-only event storage. Every method is async so that a Postgres store fits the same shape. */
export interface SessionStore {
  /**
   * Appends in order inside one transaction; `expectedCount` guards against two writers (optimistic
   * lock). `phase` is the session's phase after these events, as the caller folded them (the Ledger's
   * reducer): the store keeps it for `list()` and never works it out itself.
   */
  append(sessionId: string, events: SessionEvent[], at: AppendAt): Promise<StoredEvent[]>;
  load(sessionId: string): Promise<StoredEvent[]>;
  /**
   * The events with their hash chain (./ledger-chain.ts), for verification. Kept apart from `load`:
   * events have fields of their own named `hash`, and the chain is the store's, not the session's.
   */
  loadChain(sessionId: string): Promise<LedgerLink[]>;
  /** The hash of the session's last event (what a receipt signs), or null when it has none. */
  ledgerHead(sessionId: string): Promise<string | null>;
  list(): Promise<SessionSummary[]>;
  /** Associate a session with a lookup key (GitHub issue); the newest session for a key wins. */
  setKey(sessionId: string, key: string): Promise<void>;
  findByKey(key: string): Promise<string | null>;
  /**
   * The inbox: stores a delivery with its payload and dedups it by id, in one transaction, durable
   * before it returns (so before the webhook is answered). A known id keeps its first payload.
   */
  receiveDelivery(d: InboxDelivery): Promise<DeliveryState>;
  /** Marks a delivery done; called only once its job's effects are recorded. Unknown ids are ignored. */
  completeDelivery(deliveryId: string): Promise<void>;
  /** Deliveries received and not done, oldest first: what a restarted app runs again. */
  pendingDeliveries(): Promise<InboxDelivery[]>;
  /** One delivery by id if it is received and not done, else null: a worker's lookup, by primary key. */
  pendingDelivery(deliveryId: string): Promise<InboxDelivery | null>;
  /**
   * Writes `value` under `key` unless a value is there, atomically; returns the value that is there
   * afterwards. Used to claim a GitHub object (a comment, a review, a label event) for the first
   * delivery that acts on it, so a replayed body under a new delivery id changes nothing.
   */
  claimEffect(sessionId: string, key: string, value: string): Promise<string>;
  /** Small key/value records for side-effect ids (check run id, PR number, comment ids). */
  putEffect(sessionId: string, key: string, value: string): Promise<void>;
  getEffect(sessionId: string, key: string): Promise<string | null>;
  /** Every record under `sessionId`, by key: a registry kept one row per member, so that writers of different members never meet. */
  effectsOf(sessionId: string): Promise<{ key: string; value: string }[]>;
  /** The recorded model calls of `scope` at or after `since` (ISO), summed: each call once, by its event (./ledger-views.ts). */
  spendSince(scope: SpendScope, since: string): Promise<Spend>;
  /** How many sessions the requester started in the repository at or after `since` (ISO). */
  startsSince(scope: StartsScope, since: string): Promise<number>;
  /** Every installation's recorded model calls, all time: what the metrics count. */
  spendByInstallation(): Promise<InstallationSpend[]>;
  /** Every recorded sandboxed run (setup, baseline, tests), by kind and the limit that stopped it. */
  sandboxRuns(): Promise<SandboxRunCount[]>;
  close(): Promise<void>;
}

export class ConcurrentAppendError extends FatalError {
  readonly kind = "concurrent_append";
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`session ${sessionId} has ${actual} events, expected ${expected}: another writer appended`);
  }
}
