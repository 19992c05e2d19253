import { isIP } from "node:net";

/**
 * Which addresses the egress proxy may connect to. Pure: the host's own networks come in as data
 * (host-networks.ts). The proxy checks the address a name resolved to, never only the name, so a
 * registry name that resolves (or is re-pointed, DNS rebinding) to the host's loopback, a cloud
 * metadata service or the internal network is refused like the address itself.
 *
 * Documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) are not refused: they are not
 * anyone's private network, and test networks (this project's CI among them) put public services
 * there. The host's own interfaces and the subnets they are on are refused whatever their class.
 */
export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** An interface network of the host, as os.networkInterfaces() gives it ("192.0.2.2/24"). */
export interface HostNetwork {
  name: string;
  cidr: string;
}

const V4_RANGES: [string, string][] = [
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared address space (carrier-grade NAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local (cloud metadata)"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
];

const V6_RANGES: [string, string][] = [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::/96", "IPv4-compatible"],
  ["100::/64", "discard"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local"],
  ["fc00::/7", "private (unique local)"],
  ["ff00::/8", "multicast"],
];

// IPv6 forms that carry an IPv4 address, which then decides: [prefix, byte offset of the IPv4 address].
const V4_CARRIERS: [string, number][] = [
  ["::ffff:0:0/96", 12],
  ["64:ff9b::/96", 12],
  ["64:ff9b:1::/48", 12],
  ["2002::/16", 2],
];

/** The address as 4 or 16 bytes; null when it is not an IP address. A zone (`fe80::1%eth0`) is dropped. */
export function addressBytes(text: string): Uint8Array | null {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(address);
  if (family === 4) return Uint8Array.from(address.split(".").map(Number));
  if (family !== 6) return null;
  let groups = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    tail.push(...dotted[1].split(".").map(Number));
    groups = `${address.slice(0, -dotted[1].length)}0:0`;
  }
  const [head, rest] = groups.includes("::") ? groups.split("::") : [groups, null];
  const words = (s: string) => (s === "" ? [] : s.split(":").map((w) => parseInt(w, 16)));
  const left = words(head);
  const right = rest === null ? [] : words(rest);
  const fill = Array<number>(8 - left.length - right.length).fill(0);
  const all = [...left, ...fill, ...right];
  const bytes = all.flatMap((w) => [w >> 8, w & 0xff]);
  if (dotted) bytes.splice(12, 4, ...tail);
  return Uint8Array.from(bytes);
}

function inCidr(bytes: Uint8Array, cidr: string): boolean {
  const [base, bitsText] = cidr.split("/");
  const net = addressBytes(base);
  const bits = Number(bitsText);
  if (net === null || net.length !== bytes.length || !(bits >= 0 && bits <= bytes.length * 8)) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((bytes[i >> 3] & mask) !== (net[i >> 3] & mask)) return false;
  }
  return true;
}

function v4Class(bytes: Uint8Array): string | null {
  return V4_RANGES.find(([cidr]) => inCidr(bytes, cidr))?.[1] ?? null;
}

/** Why `address` is refused as an egress destination, or that it may be used. */
export function classifyAddress(address: string, hostNetworks: readonly HostNetwork[] = []): AddressVerdict {
  const bytes = addressBytes(address);
  if (bytes === null) return { ok: false, reason: "not an IP address" };
  const own = hostNetworks.find((n) => inCidr(bytes, n.cidr));
  const ownReason = own ? `the host's own network (${own.name} ${own.cidr})` : null;
  if (bytes.length === 4) {
    const cls = v4Class(bytes) ?? ownReason;
    return cls === null ? { ok: true } : { ok: false, reason: cls };
  }
  for (const [prefix, at] of V4_CARRIERS) {
    if (!inCidr(bytes, prefix)) continue;
    const inner = bytes.slice(at, at + 4).join(".");
    const verdict = classifyAddress(inner, hostNetworks);
    if (!verdict.ok) return { ok: false, reason: `${verdict.reason}, as IPv6 ${address}` };
    return ownReason === null ? verdict : { ok: false, reason: ownReason };
  }
  const cls = V6_RANGES.find(([cidr]) => inCidr(bytes, cidr))?.[1] ?? ownReason;
  return cls === null ? { ok: true } : { ok: false, reason: cls };
}
