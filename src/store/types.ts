import type { SessionEvent, StoredEvent } from "../session/events.js";
import type { Phase } from "../session/types.js";

export interface SessionSummary {
  id: string;
  /** Lookup key, e.g. "owner/repo#12" for a GitHub issue; null for local runs. */
  key: string | null;
  phase: Phase;
  createdAt: string;
  updatedAt: string;
}

/** Durable, append-only event storage. Every method is async so that a Postgres store fits the same shape. */
export interface SessionStore {
  /** Appends in order inside one transaction; `expectedCount` guards against two writers (optimistic lock). */
  append(sessionId: string, events: SessionEvent[], expectedCount?: number): Promise<StoredEvent[]>;
  load(sessionId: string): Promise<StoredEvent[]>;
  list(): Promise<SessionSummary[]>;
  /** Associate a session with a lookup key (GitHub issue); the newest session for a key wins. */
  setKey(sessionId: string, key: string): Promise<void>;
  findByKey(key: string): Promise<string | null>;
  /** True the first time a delivery id is seen; false for a redelivery. Durable before it returns. */
  recordDelivery(deliveryId: string, event: string): Promise<boolean>;
  /** Small key/value records for side-effect ids (check run id, PR number, comment ids). */
  putEffect(sessionId: string, key: string, value: string): Promise<void>;
  getEffect(sessionId: string, key: string): Promise<string | null>;
  close(): Promise<void>;
}

export class ConcurrentAppendError extends Error {
  readonly name = "ConcurrentAppendError";
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`session ${sessionId} has ${actual} events, expected ${expected}: another writer appended`);
  }
}
