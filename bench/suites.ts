/**
 * Every figure of `npm run bench`, by stable id, and the module that measures it. A suite measures
 * one or more figures at once (they share a fixture); `--only` runs the suites that have the ids asked for.
 * A module that is not there yet (another helper's) or a suite that fails shows its figures as not measured.
 */
import type { Figures } from "./figure.js";

export interface FigureInfo {
  id: string;
  title: string;
  goal: number;
  better?: "lower" | "higher";
}

export interface Suite {
  name: string;
  figures: FigureInfo[];
  /** The suite's measuring function, or null when its module is not in this checkout. */
  load: () => Promise<(() => Promise<Figures>) | null>;
}

/** Imports a bench module that may not exist yet: a path in a variable, so the type checker allows its absence. */
async function optional(file: string, exported: string): Promise<(() => Promise<Figures>) | null> {
  try {
    const mod = (await import(file)) as Record<string, unknown>;
    return typeof mod[exported] === "function" ? (mod[exported] as () => Promise<Figures>) : null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && String((e as Error).message).includes(file.slice(2, -3))) return null;
    throw e;
  }
}

export const SUITES: Suite[] = [
  {
    name: "sandbox",
    figures: [
      { id: "sandbox_node", title: "sandboxed `node -e 0` / bare", goal: 1.1 },
      { id: "sandbox_node_test", title: "sandboxed `node --test` (small suite) / bare", goal: 1.1 },
    ],
    load: async () => (await import("./sandbox.js")).benchSandbox,
  },
  {
    name: "workspace",
    figures: [{ id: "workspace_second_session", title: "second session's workspace on a large repo / `git worktree add`", goal: 1.5 }],
    load: () => optional("./workspace-mirror.js", "benchWorkspaceMirror"),
  },
  {
    name: "snapshot",
    figures: [
      { id: "snapshot_treehash", title: "`treeHash()` on a large repo / raw plumbing", goal: 1.2 },
      { id: "snapshot_diff", title: "`diff()` on a large repo / raw plumbing", goal: 1.2 },
    ],
    load: () => optional("./snapshot.js", "benchSnapshot"),
  },
  {
    name: "step",
    figures: [{ id: "step_overhead_ms", title: "runtime work per step, zero-latency model (ms, median)", goal: 5 }],
    load: async () => (await import("./step-overhead.js")).benchStepOverhead,
  },
  {
    name: "concurrency",
    figures: [{ id: "event_loop_p99_ms", title: "event-loop delay p99 while 50 sessions run (ms)", goal: 20 }],
    load: () => optional("./concurrency.js", "benchConcurrency"),
  },
  {
    name: "session-overhead",
    figures: [
      { id: "session_overhead", title: "whole session on a real project / its setup + test runs (median of the projects)", goal: 1.1 },
      { id: "session_overhead_max", title: "the same, the worst project", goal: 1.2 },
    ],
    load: async () => (await import("./session-overhead.js")).benchSessionOverhead,
  },
  {
    name: "capacity",
    figures: [
      {
        id: "capacity_latency_bound",
        title: "sessions one worker holds at once (10 model calls of 3 s, 2 test runs) within 1.15× one alone",
        goal: 100,
        better: "higher",
      },
      { id: "capacity_rss_per_session_mb", title: "worker RSS per active session at that load (MB)", goal: 8 },
    ],
    load: async () => (await import("./capacity.js")).benchCapacity,
  },
  {
    name: "scaleout",
    figures: [
      {
        id: "scaleout_overhead",
        title: "throughput of 3 workers on PostgreSQL / 1 process with the same slots (the capacity session)",
        goal: 0.9,
        better: "higher",
      },
    ],
    load: async () => (await import("./scaleout.js")).benchScaleout,
  },
  {
    name: "fairness",
    figures: [
      {
        id: "fairness",
        title: "lowest Jain's index of starts per installation in a window of 100 (1,000 queued, one installation half)",
        goal: 0.95,
        better: "higher",
      },
    ],
    load: async () => (await import("./fairness.js")).benchFairness,
  },
  {
    name: "webhook",
    figures: [{ id: "webhook_p99", title: "webhook p99 time-to-2xx at 200/s / its floor (bare Probot + one fsync + one thread hop)", goal: 1.2 }],
    load: async () => (await import("./webhook.js")).benchWebhook,
  },
  {
    name: "rss",
    figures: [
      { id: "rss_idle", title: "idle RSS / bare Probot app", goal: 1.2 },
      { id: "rss_parked_10_mb", title: "RSS added by 10 parked sessions (MB)", goal: 20 },
    ],
    load: () => optional("./rss.js", "benchRss"),
  },
  {
    name: "dependency-cache",
    figures: [{ id: "deps_cache_second_setup", title: "second session's dependency setup / first", goal: 0.1 }],
    load: async () => (await import("./dependency-cache.js")).benchDependencyCache,
  },
  {
    name: "context",
    figures: [{ id: "context_max_over_median", title: "largest prompt / median prompt over 200 steps", goal: 2 }],
    load: async () => (await import("./context.js")).benchContext,
  },
];

export const FIGURE_IDS: string[] = SUITES.flatMap((s) => s.figures.map((f) => f.id));
