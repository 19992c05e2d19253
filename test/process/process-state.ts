import { readdirSync, readFileSync } from "node:fs";

/** "gone" for no process or a zombie (this machine's init reaps late). */
function processState(pid: number): "alive" | "gone" {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X" ? "gone" : "alive";
  } catch {
    return "gone";
  }
}

/**
 * Resolves once every pid is gone; rejects naming those still alive after `boundMs`. Dying after
 * SIGKILL or after a pipe closes is not instant, so this waits on the condition, not on a delay.
 */
export async function untilGone(pids: number[], boundMs = 20_000): Promise<void> {
  const end = Date.now() + boundMs;
  for (;;) {
    const alive = pids.filter((p) => processState(p) === "alive");
    if (alive.length === 0) return;
    if (Date.now() > end) throw new Error(`still alive after ${boundMs} ms: ${alive.join(", ")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pids of the live processes whose argv is exactly `argv` (to find one started inside a sandbox). */
export function pidsRunning(argv: string[]): number[] {
  const want = argv.join("\0") + "\0";
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8") === want && processState(Number(entry)) === "alive") found.push(Number(entry));
    } catch {
      // Gone while listing.
    }
  }
  return found;
}
