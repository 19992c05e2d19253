import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { notMeasured, type FigureResult } from "../../bench/figure.js";
import { FIGURE_IDS, SUITES } from "../../bench/suites.js";
import { renderTable, toJson } from "../../bench/table.js";

const run = promisify(execFile);

const measured: FigureResult = { measured: "bubblewrap 30 ms", baseline: "bare 25 ms", ratio: 1.2, goal: 1.1, min: 1.1, median: 1.2, max: 1.4 };
const higher: FigureResult = { measured: "120 sessions", baseline: "N=120: 1.1×", ratio: 120, goal: 100, better: "higher" };
// A module claiming `met` does not make it so: the table decides from ratio and goal.
const claims: FigureResult = { ...measured, met: true };
const rows = [
  { id: "sandbox_node", title: "sandboxed node", result: measured },
  { id: "capacity_latency_bound", title: "sessions within 1.15× one alone", result: higher },
  { id: "sandbox_node_test", title: "claims", result: claims },
  { id: "snapshot_diff", title: "diff", result: notMeasured("module not landed", 1.2) },
];

describe("the bench table", () => {
  it("has every stable figure id exactly once", () => {
    expect(FIGURE_IDS).toEqual(
      expect.arrayContaining([
        "sandbox_node",
        "sandbox_node_test",
        "workspace_second_session",
        "snapshot_treehash",
        "snapshot_diff",
        "step_overhead_ms",
        "event_loop_p99_ms",
        "session_overhead",
        "session_overhead_max",
        "capacity_latency_bound",
        "capacity_rss_per_session_mb",
        "scaleout_overhead",
        "fairness",
        "webhook_p99",
        "rss_idle",
        "rss_parked_10_mb",
        "deps_cache_second_setup",
        "context_max_over_median",
      ]),
    );
    expect(FIGURE_IDS).not.toContain("concurrency_ideal_fraction");
    expect(FIGURE_IDS).toHaveLength(18);
    expect(new Set(FIGURE_IDS).size).toBe(18);
    expect(SUITES.every((s) => s.figures.length > 0)).toBe(true);
  });

  it("prints one markdown table: header, separator, one row per figure, met judged from ratio and goal", () => {
    const lines = renderTable(rows).split("\n");
    expect(lines[0]).toBe("| figure | measured | baseline | ratio (min–max) | goal | met |");
    expect(lines).toHaveLength(2 + rows.length);
    expect(lines[1]).toBe("|---|---|---|---|---|---|");
    expect(lines.slice(2).every((l) => l.startsWith("| ") && l.endsWith(" |") && l.split(" | ").length === 6)).toBe(true);
    expect(lines[2]).toContain("1.200 (1.100–1.400) | ≤ 1.1 | **not met** |");
    expect(lines[3]).toContain("| ≥ 100 | met |");
    expect(lines[4]).toContain("**not met**");
    expect(lines[5]).toContain("not measured: module not landed");
    expect(lines[5]).toMatch(/\| — \| ≤ 1.2 \| not measured \|$/);
  });

  it("gives the same figures as JSON keyed by id, with ratio, goal and met", () => {
    const json = toJson(rows) as Record<string, { ratio: number | null; goal: number; met: boolean; status?: string; min?: number; max?: number }>;
    expect(Object.keys(json)).toEqual(rows.map((r) => r.id));
    expect(json.sandbox_node).toMatchObject({ ratio: 1.2, goal: 1.1, met: false, min: 1.1, max: 1.4 });
    expect(json.capacity_latency_bound).toMatchObject({ ratio: 120, goal: 100, met: true, better: "higher" });
    expect(json.sandbox_node_test!.met).toBe(false);
    expect(json.snapshot_diff).toMatchObject({ ratio: null, met: false, status: "not measured" });
  });

  it("answers a wrong flag with its usage and exit code 2, never a stack trace", async () => {
    const err = await run(process.execPath, ["--import", "tsx", "bench/index.ts", "--only", "no_such_figure"]).catch(
      (e: { code: number; stderr: string; stdout: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    const { stderr, stdout } = err as { stderr: string; stdout: string };
    expect(stderr).toContain("unknown figure id: no_such_figure");
    expect(stderr).toContain("usage: npm run bench -- [--json] [--only <figure-id>");
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe("");
  });
});
