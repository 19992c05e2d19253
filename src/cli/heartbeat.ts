import type { SessionEvent } from "../session/events.js";
import type { Ledger } from "../store/ledger.js";

/** How often the status line is redrawn; PATCHGATE_HEARTBEAT_MS lets tests see it without waiting. */
const intervalMs = (): number => Number(process.env.PATCHGATE_HEARTBEAT_MS) || 5_000;
const CLEAR = "\r\x1b[K";

export interface Heartbeat {
  /** The stream to print through: a write first clears the status line, so output never mixes with it. */
  out: NodeJS.WritableStream;
  /** What is going on now (cloning, running tests…); null when nothing long is running. */
  doing(label: string | null): void;
  stop(): void;
}

/**
 * A long clone, setup or test run otherwise looks like a hung terminal. On a terminal only (never
 * in a pipe or a log), one status line shows what runs and for how long, redrawn in place.
 */
export function heartbeat(out: NodeJS.WritableStream): Heartbeat {
  if (!(out as NodeJS.WriteStream).isTTY) return { out, doing: () => {}, stop: () => {} };
  let label: string | null = null;
  let since = Date.now();
  let shown = false;
  const clear = () => {
    if (shown) out.write(CLEAR);
    shown = false;
  };
  const timer = setInterval(() => {
    if (label === null) return;
    out.write(`${CLEAR}… ${label} (${Math.round((Date.now() - since) / 1000)} s)`);
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
      if (next !== label) since = Date.now();
      label = next;
      if (next === null) clear();
    },
    stop() {
      clearInterval(timer);
      label = null;
      clear();
    },
  };
}

const LONG_RUNNING = new Set(["run_tests", "run_command"]);

/** Follows the ledger: a test or command run the policy let through is long-running until its result. */
export function followSession(hb: Heartbeat, ledger: Ledger): void {
  ledger.onEvent((event: SessionEvent, state) => {
    if (event.type === "policy_decided" && event.decision === "allow" && LONG_RUNNING.has(event.tool)) {
      hb.doing(`step ${state.step}: ${event.tool === "run_tests" ? "setup and tests" : `running ${event.subject}`}`);
    } else if (event.type === "tool_result" || event.type === "approval_requested") {
      hb.doing(null);
    }
  });
}
