import { processOperatorEnv } from "../config/operator-env.js";

/** How often the status line is redrawn; PATCHGATE_HEARTBEAT_MS lets tests see it without waiting. */
const intervalMs = (): number => Number(processOperatorEnv().PATCHGATE_HEARTBEAT_MS) || 5_000;
const CLEAR = "\r\x1b[K";

export interface Heartbeat {
  /** The stream to print through: a write first clears the status line, so output never mixes with it. */
  out: NodeJS.WritableStream;
  /** What is going on now (cloning, running tests…); null when nothing long is running. */
  doing(label: string | null): void;
  /** The last line the running command printed, shown after the label until the next one. */
  detail(line: string): void;
  stop(): void;
}

/**
 * A long clone, setup or test run otherwise looks like a hung terminal. On a terminal only (never
 * in a pipe or a log), one status line shows what runs and for how long, redrawn in place.
 */
export function heartbeat(out: NodeJS.WritableStream): Heartbeat {
  if (!(out as NodeJS.WriteStream).isTTY) return { out, doing: () => {}, detail: () => {}, stop: () => {} };
  let label: string | null = null;
  let last = "";
  let since = Date.now();
  let shown = false;
  const clear = () => {
    if (shown) out.write(CLEAR);
    shown = false;
  };
  const timer = setInterval(() => {
    if (label === null) return;
    const line = `… ${label} (${Math.round((Date.now() - since) / 1000)} s)${last ? ` │ ${last}` : ""}`;
    out.write(`${CLEAR}${fit(line, (out as NodeJS.WriteStream).columns)}`);
    shown = true;
  }, intervalMs());
  timer.unref();
  const wrapped = new Proxy(out, {
    get(target, prop) {
      if (prop === "write") {
        return (...args: unknown[]) => {
          clear();
          return (target.write as (...a: unknown[]) => boolean)(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    out: wrapped,
    doing(next) {
      if (next !== label) {
        since = Date.now();
        last = "";
      }
      label = next;
      if (next === null) clear();
    },
    detail(line) {
      last = line.trim();
    },
    stop() {
      clearInterval(timer);
      label = null;
      clear();
    },
  };
}

/** One terminal row: a status line that wraps can no longer be redrawn in place. */
function fit(line: string, columns: number | undefined): string {
  // A pseudo-terminal without a size reports 0 columns.
  const width = (columns !== undefined && columns >= 40 ? columns : 100) - 1;
  return line.length > width ? `${line.slice(0, Math.max(width - 1, 10))}…` : line;
}
