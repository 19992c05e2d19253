import { FatalError } from "../errors/index.js";

/**
 * Why a process could not be run to its end through the spawn helper. A command that fails is a
 * result (its exit code or signal); these mean nobody can tell how it ended.
 */
export type ProcessErrorKind =
  /** The helper process could not be started at all. */
  | "helper_start_failed"
  /** The helper died (killed, crashed) while the process was running or before it started. */
  | "helper_lost";

export class ProcessError extends FatalError {
  constructor(
    readonly kind: ProcessErrorKind,
    message: string,
  ) {
    super(message);
  }
}
