import { FatalError } from "../errors/index.js";

/** A problem the user can fix (missing key, bad flag, broken config): printed plainly, no stack trace. */
export class UsageError extends FatalError {
  readonly kind = "usage";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
