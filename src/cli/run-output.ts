import { redact } from "../safety/redact.js";
import { parseTestFailures } from "../sandbox/test-report/parse.js";
import { totalsText } from "../sandbox/test-summary.js";
import type { OnRun, RunStarted } from "../runs/run-progress.js";
import type { Heartbeat } from "./heartbeat.js";

/** Lines of a run shown when it ends, unless --verbose showed them all as they came. */
const TAIL_LINES = 5;
/** What is kept of a run's output for its counts; the sandbox caps the output anyway. */
const KEPT_LINES = 20_000;

const WHAT: Record<RunStarted["kind"], string> = { setup: "setup", baseline: "baseline tests", tests: "tests", command: "command" };

function label(run: RunStarted): string {
  const network = run.kind !== "setup" ? "" : run.network ? ", with network (package registries only)" : ", without network";
  return `${WHAT[run.kind]}: ${run.command}${network}`;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * Setup, test and command output at the terminal. A run is announced when it starts; while it runs
 * the status line shows its last line; when it ends, its last few lines and the counts (lines, and
 * the tests the runner reported) are printed. npm and test runners print hundreds of lines a run,
 * which would bury the session's own lines: `--verbose` prints every line as it comes instead.
 */
export function runOutput(
  out: NodeJS.WritableStream,
  hb: Heartbeat,
  verbose: boolean,
  secrets: readonly string[],
): { onOutput: (stream: "stdout" | "stderr", line: string) => void; onRun: OnRun } {
  let kept: { stream: "stdout" | "stderr"; line: string }[] = [];
  let count = 0;
  const shown = (stream: "stdout" | "stderr", line: string) => `    ${stream === "stderr" ? "!" : "│"} ${line}`;
  return {
    onOutput(stream, raw) {
      const line = redact(raw, secrets);
      count += 1;
      if (kept.length < KEPT_LINES) kept.push({ stream, line });
      if (verbose) out.write(`${shown(stream, line)}\n`);
      else if (line.trim() !== "") hb.detail(line);
    },
    onRun(run) {
      const started = Date.now();
      kept = [];
      count = 0;
      out.write(`  ▶ ${redact(label(run), secrets)}\n`);
      hb.doing(redact(label(run), secrets));
      return () => {
        hb.doing(null);
        const lines = count === 1 ? "1 line" : `${count} lines`;
        if (!verbose && count > TAIL_LINES) out.write(`    … ${lines} of output, the last ${TAIL_LINES} (--verbose shows all):\n`);
        if (!verbose && count > 0)
          out.write(
            `${kept
              .slice(-TAIL_LINES)
              .map((k) => shown(k.stream, k.line))
              .join("\n")}\n`,
          );
        const totals = run.kind === "tests" || run.kind === "baseline" ? parseTestFailures(kept.map((k) => k.line).join("\n")).totals : undefined;
        const counts = totals ? `; tests: ${totalsText(totals)}` : "";
        out.write(`  ■ ${WHAT[run.kind]} ended after ${seconds(Date.now() - started)}, ${lines} of output${counts}\n`);
      };
    },
  };
}
