/**
 * How the long-running processes (`npm start`, `patchgate serve`, `patchgate worker`) stop on SIGTERM
 * (`docker stop`, systemd, Kubernetes) and SIGINT: take no new work, give the work in hand a grace
 * period to settle, then exit 0. Work still running after it is left to the ledger, as after a crash:
 * the next start resumes it, and a call that was in flight is answered `interrupted`.
 *
 * A handler is needed even where SIGTERM's default would end the process: as PID 1 in a container the
 * kernel gives node no default action, so without one `docker stop` waits its 10 s and kills.
 */

/** Inside `docker stop`'s default 10 s, so the process exits on its own rather than being killed. */
const STOP_GRACE_MS = 8_000;

export interface StopOptions {
  /** Takes no new work (closes the HTTP server, stops taking jobs). */
  refuse(): Promise<void>;
  /** Resolves once the work in hand has settled. Both steps together are cut off after `graceMs`. */
  drain(): Promise<void>;
  log(line: string): void;
  graceMs?: number;
  exit?: (code: number) => void;
}

/** Installs the stop on SIGTERM and SIGINT; a second signal exits at once. */
export function stopOnSignals(o: StopOptions): void {
  let stopping = false;
  const exit = o.exit ?? ((code: number) => process.exit(code));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      o.log(`${signal} again: exiting now; the work still running resumes at the next start`);
      exit(1);
      return;
    }
    stopping = true;
    void stop(signal, o, exit);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}

async function stop(signal: NodeJS.Signals, o: StopOptions, exit: (code: number) => void): Promise<void> {
  const graceMs = o.graceMs ?? STOP_GRACE_MS;
  o.log(`${signal}: stopping — no new work; waiting up to ${graceMs / 1000} s for the work in hand`);
  let timer: NodeJS.Timeout | undefined;
  const cutOff = new Promise<"cut off">((resolve) => (timer = setTimeout(() => resolve("cut off"), graceMs)));
  try {
    const settled = o
      .refuse()
      .then(() => o.drain())
      // A parked session's dependency-cache entry may still be committing beside it.
      .then(async () => (await import("../depcache/index.js")).besideCommitsSettled())
      .then(() => "settled" as const);
    const how = await Promise.race([settled, cutOff]);
    o.log(how === "settled" ? "stopped: nothing was left running" : "stopped: the work still running resumes at the next start");
    exit(0);
  } catch (err) {
    o.log(`stopping failed: ${err instanceof Error ? err.message : String(err)}`);
    exit(1);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probot's `run` adds its own SIGINT listener, which exits without waiting for the work in hand;
 * this starts `start` and removes the listeners it added, so `stopOnSignals` alone decides.
 */
export async function withoutProbotSignalHandlers<T>(start: () => Promise<T>): Promise<T> {
  const before = new Set([...process.listeners("SIGINT"), ...process.listeners("SIGTERM")]);
  const started = await start();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const l of process.listeners(signal)) if (!before.has(l)) process.off(signal, l);
  }
  return started;
}
