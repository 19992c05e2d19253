import type { Ledger } from "../store/ledger.js";
import { WorkspaceError } from "../workspace/workspace-error.js";
import { UsageError } from "./usage-error.js";

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
    const message = WorkspaceError.isInstance(err) ? withStderr(err.message, err.stderr) : (err as Error).message;
    if (!usage && !WorkspaceError.isInstance(err)) throw err;
    await ledger.append({ type: "session_failed", reason: usage ? "config_invalid" : "workspace_error", message });
    throw new UsageError(`session ${ledger.sessionId} failed: ${message}`, 1);
  }
}

/** git's words once: most messages already end with its stderr, and saying it twice reads as two failures. */
function withStderr(message: string, stderr: string | undefined): string {
  const said = stderr?.trim() ?? "";
  return said === "" || message.includes(said) ? message : `${message}: ${said}`;
}
