import { WorkspaceError } from "./workspace-error.js";

/**
 * Runs `fn` with a signal that aborts when the caller's does or when `ms` have passed. The caller's
 * abort comes back as whatever `fn` rejected with (an AbortError); the deadline as a WorkspaceError
 * `timeout` naming `what`. The listener on the caller's signal lives only as long as the call, so a
 * session-long signal does not collect one per git call.
 */
export async function withDeadline<T>(what: string, ms: number, signal: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const bound = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    bound.abort(new Error(`${what} timed out`));
  }, ms);
  const forward = (): void => bound.abort(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  try {
    return await fn(bound.signal);
  } catch (e) {
    if (expired && !signal?.aborted) throw new WorkspaceError("timeout", `${what} did not finish within ${ms / 1000} s and was stopped`);
    throw e;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forward);
  }
}
