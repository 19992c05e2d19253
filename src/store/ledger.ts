import { reduce, fold } from "../session/reducer.js";
import type { SessionEvent, StoredEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { SessionStore } from "./types.js";

export type EventListener = (event: StoredEvent, state: SessionState) => void;

/**
 * One session's events plus its folded state. Appends are validated through the reducer first, so an
 * illegal event throws and is never stored; then written with an optimistic count check.
 */
export class Ledger {
  private constructor(
    private readonly store: SessionStore,
    readonly sessionId: string,
    private events: StoredEvent[],
    private current: SessionState,
    private readonly listeners: EventListener[],
  ) {}

  /** The append in progress: appends run one after another, each against the state the last one left. */
  private tail: Promise<unknown> = Promise.resolve();

  static async open(store: SessionStore, sessionId: string, listeners: EventListener[] = []): Promise<Ledger> {
    const events = await store.load(sessionId);
    if (events.length === 0) throw new Error(`unknown session ${sessionId}`);
    return new Ledger(store, sessionId, events, fold(events), listeners);
  }

  static async create(store: SessionStore, created: Extract<SessionEvent, { type: "session_created" }>, listeners: EventListener[] = []): Promise<Ledger> {
    const ledger = new Ledger(store, created.sessionId, [], fold([]), listeners);
    // fold([]) has eventCount 0, which is what session_created requires.
    await ledger.append(created);
    return ledger;
  }

  get state(): SessionState {
    return this.current;
  }

  get history(): readonly StoredEvent[] {
    return this.events;
  }

  /** The hash of the last stored event (the chain's head), once appends in flight are stored: what a receipt signs. */
  async head(): Promise<string | null> {
    await this.tail.catch(() => undefined);
    return this.store.ledgerHead(this.sessionId);
  }

  onEvent(listener: EventListener): void {
    this.listeners.push(listener);
  }

  /**
   * Validates every event against the state, stores them in one transaction, then notifies. Appends
   * made while another is being stored (the baseline test run beside the loop's reads) wait for it:
   * each is judged against the state the one before it left, never against the same old count.
   */
  append(...events: SessionEvent[]): Promise<SessionState> {
    const run = this.tail.then(() => this.appendNow(events));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async appendNow(events: SessionEvent[]): Promise<SessionState> {
    // The state after each event, kept for the listeners: the reducer reads neither seq nor at, so
    // folding the stored events again would give the same states for twice the work.
    const after: SessionState[] = [];
    let next = this.current;
    for (const e of events) after.push((next = reduce(next, e)));
    const stored = await this.store.append(this.sessionId, events, { expectedCount: this.events.length, phase: next.phase });
    // State first, then listeners: a throwing listener must not leave state behind the stored events.
    this.events = [...this.events, ...stored];
    this.current = next;
    stored.forEach((e, i) => {
      for (const l of this.listeners) l(e, after[i]!);
    });
    return next;
  }
}
