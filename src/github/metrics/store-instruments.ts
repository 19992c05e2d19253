import { Counter, Gauge, Registry } from "prom-client";
import type { PatchgateDeps } from "../deps.js";

/**
 * What the store and the queue know, read at each scrape: the same numbers on every receiver and worker
 * sharing a store, since they come from the ledger (src/store/ledger-views.ts), not from one process.
 */
export function storeInstruments(deps: Pick<PatchgateDeps, "store" | "queue">): Registry {
  const registry = new Registry();
  const registers = [registry];
  new Gauge({
    name: "patchgate_sessions",
    help: "Sessions in the store, by phase.",
    labelNames: ["phase"],
    registers,
    async collect() {
      this.reset();
      for (const s of await deps.store.list()) this.inc({ phase: s.phase });
    },
  });
  // Counters whose totals the ledger holds: set from it at each scrape (reset, then the whole total).
  const bySpend = (name: string, help: string, value: (s: Awaited<ReturnType<typeof deps.store.spendByInstallation>>[number]) => number) =>
    new Counter({
      name,
      help,
      labelNames: ["installation"],
      registers,
      async collect() {
        this.reset();
        for (const s of await deps.store.spendByInstallation()) this.inc({ installation: String(s.installationId) }, value(s));
      },
    });
  bySpend("patchgate_model_calls_total", "Recorded model calls, by GitHub App installation id.", (s) => s.calls);
  bySpend("patchgate_model_tokens_total", "Prompt + completion tokens of the recorded model calls, by installation id.", (s) => s.tokens);
  bySpend("patchgate_model_cost_usd_total", "Cost of the recorded model calls whose price is known, in USD, by installation id.", (s) => s.usd);
  bySpend(
    "patchgate_model_unpriced_calls_total",
    "Recorded model calls whose model had no price (in tokens only), by installation id.",
    (s) => s.unpricedCalls,
  );
  new Counter({
    name: "patchgate_sandbox_runs_total",
    help: "Recorded sandboxed runs (setup_run, baseline_run, test_run), by kind.",
    labelNames: ["kind"],
    registers,
    async collect() {
      this.reset();
      for (const r of await deps.store.sandboxRuns()) this.inc({ kind: r.kind }, r.runs);
    },
  });
  new Counter({
    name: "patchgate_sandbox_limits_fired_total",
    help: "Recorded sandboxed runs a limit stopped (time, disk, file_size, cpu, memory, stop), by kind and limit.",
    labelNames: ["kind", "limit"],
    registers,
    async collect() {
      this.reset();
      for (const r of await deps.store.sandboxRuns()) if (r.limit !== null) this.inc({ kind: r.kind, limit: r.limit }, r.runs);
    },
  });
  new Gauge({
    name: "patchgate_queue_jobs",
    help: "Jobs in the queue, by state (queued: waiting; running).",
    labelNames: ["state"],
    registers,
    async collect() {
      const c = await deps.queue.counts?.();
      this.set({ state: "queued" }, c?.queued ?? 0);
      this.set({ state: "running" }, c?.running ?? 0);
    },
  });
  return registry;
}
