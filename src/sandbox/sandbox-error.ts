import { FatalError } from "../errors/index.js";

/**
 * The only ways `Sandbox.run` rejects. A command that fails is a result; these mean the run never
 * happened, so they are the runtime's problem, not the model's: fatal, not retryable by the model.
 */
export type SandboxErrorKind =
  /** The request itself is wrong (empty argv, relative workspace, cwd outside the workspace): a caller bug. */
  | "invalid_request"
  /** The backend binary could not be started (bwrap or docker missing, not executable). */
  | "spawn_failed"
  /** The process that started the backend died during the run (src/process): its outcome is unknown. */
  | "backend_lost";

export class SandboxError extends FatalError {
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
  ) {
    super(message);
  }
}
