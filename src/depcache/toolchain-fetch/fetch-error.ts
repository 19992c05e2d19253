import { HandledError } from "../../errors/index.js";

/** Why a toolchain could not be fetched: the caller turns it into the reason a session is blocked. */
export type FetchErrorKind =
  /** The registry did not answer, or answered with something that is not what was asked. */
  | "registry"
  /** The tarball's sha512 is not the one the registry publishes for it. */
  | "integrity"
  /** The tarball holds something a toolchain package never needs (a link, a device, a path leaving it). */
  | "archive"
  /** What was fetched could not be kept in the dependency cache, or was not found there whole after. */
  | "cache";

export class ToolchainFetchError extends HandledError {
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
  ) {
    super(message);
  }
}
