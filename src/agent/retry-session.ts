import type { Ledger } from "../store/ledger.js";
import { TERMINAL_PHASES } from "../session/types.js";
import { reopenSession } from "./approvals.js";
import { requestSetupRetry } from "./networked-setup.js";

/**
 * What a retry does next, once the ledger holds the request. `continue`: drive the same session on
 * (`reopened` when it had failed and was reopened). `done`: nothing to retry. `start_over`: a blocked,
 * cancelled or failed-while-planning session is not continued; a new one is started with its task.
 */
export type RetryStep = { kind: "continue"; reopened: boolean } | { kind: "done" } | { kind: "start_over" };

/**
 * The one retry, for `/agent retry` on GitHub and `patchgate retry` at the terminal: a session still
 * open gets its failed setup run again at the next resume; a session that failed after its plan was
 * approved is reopened where it failed, its setup likewise run again; the rest is the caller's.
 */
export async function prepareRetry(ledger: Ledger, by: string): Promise<RetryStep> {
  const s = ledger.state;
  if (!TERMINAL_PHASES.includes(s.phase)) {
    await requestSetupRetry(ledger, by);
    return { kind: "continue", reopened: false };
  }
  if (s.phase === "done") return { kind: "done" };
  if (s.phase === "failed" && s.mode === "execute") {
    await reopenSession(ledger, by);
    await requestSetupRetry(ledger, by);
    return { kind: "continue", reopened: true };
  }
  return { kind: "start_over" };
}
