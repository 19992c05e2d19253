import type { Ledger } from "../store/ledger.js";
import { WorkspaceError } from "../workspace/workspace-error.js";
import { UsageError } from "./runtime-env.js";

/**
 * Clone and config reading can still fail after the session exists (an unreachable URL, a broken
 * `.github/patchgate.yml`): the session then ends `failed` with the reason, and the user sees one
 * plain line instead of a stack.
 */
export async function failOnSetupError<T>(ledger: Ledger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const usage = err instanceof UsageError;
    const message = WorkspaceError.isInstance(err) ? `${err.message}${err.stderr ? `: ${err.stderr.trim()}` : ""}` : (err as Error).message;
    if (!usage && !WorkspaceError.isInstance(err)) throw err;
    await ledger.append({ type: "session_failed", reason: usage ? "config_invalid" : "workspace_error", message });
    throw new UsageError(`session ${ledger.sessionId} failed: ${message}`, 1);
  }
}
