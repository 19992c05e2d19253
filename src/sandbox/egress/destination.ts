import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { classifyAddress, type HostNetwork } from "./address-class.js";
import { hostAllowed, type AllowEntry } from "./allow-rule.js";
import { isDeclaredPrivate } from "./private-destination.js";

/** All addresses a name resolves to on the host. */
export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The host's interface networks, loopback included: the setup's network is not the host's. */
export function hostNetworks(): HostNetwork[] {
  const out: HostNetwork[] = [];
  for (const [name, addrs] of Object.entries(networkInterfaces())) for (const a of addrs ?? []) if (a.cidr) out.push({ name, cidr: a.cidr });
  return out;
}

export interface DestinationRules {
  allow: readonly AllowEntry[];
  hostNetworks: readonly HostNetwork[];
  lookup: Lookup;
  /** The operator's private destinations (private-destination.ts): these names and ports may resolve to any address. */
  privateDestinations?: readonly AllowEntry[];
}

export type Destination = { ok: true; host: string; address: string } | { ok: false; reason: string };

/**
 * Where a request for `host:port` may go: the name must be allowed, and every address it resolves to
 * public. The proxy then connects to the address checked here, not to the name again, so a second
 * answer from DNS cannot send it elsewhere. One refused address refuses the name: a registry has no
 * reason to resolve to the host's loopback. Only a name and port the operator declared private skip
 * the address check, and only once the allow list has let the name past.
 */
export async function resolveDestination(hostText: string, port: number, rules: DestinationRules): Promise<Destination> {
  const name = hostAllowed(hostText, port, rules.allow);
  if (!name.ok) return name;
  let addresses: string[];
  try {
    addresses = isIP(name.host) !== 0 ? [name.host] : await rules.lookup(name.host);
  } catch (e) {
    return { ok: false, reason: `${name.host} does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (addresses.length === 0) return { ok: false, reason: `${name.host} does not resolve` };
  if (isDeclaredPrivate(name.host, port, rules.privateDestinations ?? [])) return { ok: true, host: name.host, address: addresses[0] };
  for (const address of addresses) {
    const verdict = classifyAddress(address, rules.hostNetworks);
    if (!verdict.ok)
      return {
        ok: false,
        reason: address === name.host ? `${address} is ${verdict.reason}` : `${name.host} resolves to ${address}, which is ${verdict.reason}`,
      };
  }
  return { ok: true, host: name.host, address: addresses[0] };
}
