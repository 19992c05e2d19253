import { Counter, Histogram, Registry } from "prom-client";

/** This process's own counters (./app-metrics.ts), in a registry of their own. */
export interface ProcessInstruments {
  registry: Registry;
  starts: Counter<"trigger">;
  budgetRefusals: Counter<"scope" | "at">;
  webhookSeconds: Histogram<"event">;
  queueWaitSeconds: Histogram;
}

export function processInstruments(): ProcessInstruments {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    starts: new Counter({
      name: "patchgate_session_starts_total",
      help: "Sessions created, by what started them (comment, issue, label, review, or an automation's name).",
      labelNames: ["trigger"],
      registers,
    }),
    budgetRefusals: new Counter({
      name: "patchgate_budget_refusals_total",
      help: "Sessions refused at their start (at=start) or parked while running (at=running) by an operator budget, by the scope whose ceiling was reached.",
      labelNames: ["scope", "at"],
      registers,
    }),
    webhookSeconds: new Histogram({
      name: "patchgate_webhook_seconds",
      help: "Time to take in a delivery (verify, store, deduplicate, queue) before it is answered, by event.",
      labelNames: ["event"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    queueWaitSeconds: new Histogram({
      name: "patchgate_queue_wait_seconds",
      help: "Time a job waited in the queue before it ran: this process's own queue, or, on a worker, from its enqueue to its first start.",
      buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers,
    }),
  };
}
