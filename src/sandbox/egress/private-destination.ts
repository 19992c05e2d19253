import { hostAllowed, type AllowEntry } from "./allow-rule.js";

/**
 * The operator's private destinations: exact `host` or `host:port` entries (allow-rule.ts's form,
 * never a wildcard) that the egress proxy and the registry gateway may connect to although their
 * name resolves to a loopback, private or the host's own address. A declaration lifts only that
 * address check, for that name and port: it never allows a host by itself (the run's allow list, a
 * grant or the operator's registry must still name it), and it is matched on the name the client
 * asked for, so another name resolving to the same address, or an address literal, stays refused.
 */
export function isDeclaredPrivate(host: string, port: number, declared: readonly AllowEntry[]): boolean {
  return declared.some((entry) => !entry.wildcard && hostAllowed(host, port, [entry]).ok);
}
