import type { BudgetScope } from "../../policy/spend-ceiling.js";
import type { ProcessInstruments } from "./process-instruments.js";

/**
 * What this process counts for `GET /metrics` (./metrics-route.ts): session starts by trigger, budget
 * refusals and parks, webhook handling time, queue wait. What the store knows (sessions by phase, model
 * calls and spend, sandbox runs) is read from it at each scrape instead (./store-instruments.ts).
 *
 * prom-client is loaded at the first thing counted or the first scrape, never at boot (an idle app loads
 * only what takes a delivery): what is counted while it loads waits in `pending`, in order, and is applied.
 */
export class AppMetrics {
  private loaded: ProcessInstruments | null = null;
  private loading: Promise<ProcessInstruments> | null = null;
  private readonly pending: ((i: ProcessInstruments) => void)[] = [];

  /** A session was created; `trigger` is what started it (`comment`, `issue`, `label`, an automation's name). */
  sessionStarted(trigger: string): void {
    this.record((i) => i.starts.inc({ trigger }));
  }

  /** A session was refused at its start (`scope`: installation, repository, or the requester's day). */
  budgetRefused(scope: BudgetScope | "requester_day"): void {
    this.record((i) => i.budgetRefusals.inc({ scope, at: "start" }));
  }

  /** A running session crossed a ceiling and parked. */
  budgetParked(scope: BudgetScope): void {
    this.record((i) => i.budgetRefusals.inc({ scope, at: "running" }));
  }

  /** A delivery was taken in (stored, deduplicated, queued) in `seconds`, before its answer. */
  webhookHandled(event: string, seconds: number): void {
    this.record((i) => i.webhookSeconds.observe({ event }, seconds));
  }

  /** A job waited `seconds` in this process's queue before it ran. */
  queueWaited(seconds: number): void {
    this.record((i) => i.queueWaitSeconds.observe(seconds));
  }

  /** The instruments, loading prom-client the first time. */
  async instruments(): Promise<ProcessInstruments> {
    if (this.loaded) return this.loaded;
    this.loading ??= import("./process-instruments.js").then(({ processInstruments }) => {
      const made = processInstruments();
      for (const op of this.pending.splice(0)) op(made);
      this.loaded = made;
      return made;
    });
    return this.loading;
  }

  private record(op: (i: ProcessInstruments) => void): void {
    if (this.loaded) return op(this.loaded);
    this.pending.push(op);
    // A failed load loses counts, never a delivery: metrics are not worth failing a job for.
    this.instruments().catch(() => undefined);
  }
}
