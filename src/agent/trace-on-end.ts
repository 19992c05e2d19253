import type { Ledger } from "../store/ledger.js";
import { TERMINAL_PHASES } from "../session/types.js";
import { emitSpans } from "../trace/otel.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { hostEnvironment } from "../process/index.js";

const watched = new WeakSet<Ledger>();

/**
 * Exports the session's spans once, when it reaches a terminal phase (a no-op unless tracing was set
 * up). Registered on every resume; the WeakSet keeps one listener per ledger object.
 */
export function traceOnEnd(ledger: Ledger, secrets: readonly string[] = secretsFromEnv(hostEnvironment())): void {
  if (watched.has(ledger)) return;
  watched.add(ledger);
  ledger.onEvent((event, state) => {
    // Only the event that ended the session: terminal phases accept no further events.
    if (TERMINAL_PHASES.includes(state.phase) && (event.type === "published" || event.type === "session_failed" || event.type === "session_cancelled")) {
      emitSpans(ledger.sessionId, ledger.history, secrets);
    }
  });
}
