import { FatalError } from "../errors/index.js";
import { parseAllowEntry, type AllowEntry } from "../sandbox/egress/allow-rule.js";
import type { OperatorEnv } from "./operator-env.js";

/**
 * PATCHGATE_PRIVATE_DESTINATIONS: the operator's list of the names (`host` or `host:port`, exact, no
 * wildcards; without a port, 443 and 80) that networked runs and private registries may reach on a
 * loopback, private or the host's own address (src/sandbox/egress/private-destination.ts). It is one
 * declaration for the egress proxy and the registry gateway alike, and it allows no host by itself.
 */
const VARIABLE = "PATCHGATE_PRIVATE_DESTINATIONS";

export class PrivateDestinationError extends FatalError {
  readonly kind = "invalid_private_destination";
}

/** The declared entries, in order; a bad entry is one line naming the variable and the entry. Entries are separated by commas or spaces. */
export function privateDestinationsFrom(env: Pick<OperatorEnv, typeof VARIABLE>): AllowEntry[] {
  const text = env[VARIABLE] ?? "";
  return text
    .split(/[\s,]+/)
    .filter((t) => t !== "")
    .map((item) => {
      const entry = parseAllowEntry(item);
      if (entry === null || entry.wildcard)
        throw new PrivateDestinationError(`${VARIABLE}: ${JSON.stringify(item)} is not an exact host or host:port (no wildcards)`);
      return entry;
    });
}
