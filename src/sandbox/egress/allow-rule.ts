import { isIP } from "node:net";

/**
 * Which names the egress proxy lets a networked setup reach: the package registries (registries.ts)
 * and the repository's `sandbox.allow_hosts`. Pure. An entry is a host name (`registry.npmjs.org`),
 * a wildcard for its subdomains (`*.example.org`, not the apex itself), optionally with a port
 * (`npm.example.org:8443`). Without a port, 443 and 80. The name being allowed is only the first
 * check: the address it resolves to must also be public (address-class.ts).
 */
export interface AllowEntry {
  host: string;
  wildcard: boolean;
  /** null: the web ports, 443 and 80. */
  port: number | null;
}

const WEB_PORTS = [443, 80];
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Lower case, no trailing dot, brackets off an IPv6 literal; null for anything that is not a plain name or address. */
function normalizeHost(text: string): string | null {
  const host = text.trim().toLowerCase().replace(/\.$/, "");
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare) !== 0) return bare;
  if (host.length === 0 || host.length > 253) return null;
  return host.split(".").every((l) => LABEL.test(l)) ? host : null;
}

function parsePort(text: string): number | null {
  if (!/^[1-9]\d{0,4}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

/** `host`, `*.suffix`, `host:port`, `[v6]:port`; null when malformed. */
export function parseAllowEntry(text: string): AllowEntry | null {
  const m = /^(\[[^\]]+\]|[^:]+)(?::([^:]+))?$/.exec(text.trim());
  if (!m) return null;
  const port = m[2] === undefined ? null : parsePort(m[2]);
  if (m[2] !== undefined && port === null) return null;
  const wildcard = m[1].startsWith("*.");
  const host = normalizeHost(wildcard ? m[1].slice(2) : m[1]);
  if (host === null || (wildcard && isIP(host) !== 0)) return null;
  return { host, wildcard, port };
}

/** The entry a registry URL stands for (`https://r.example:8443/npm/` → r.example:8443); its credentials are never kept. */
export function allowEntryFromUrl(url: string): AllowEntry | null {
  let u: URL;
  try {
    u = new URL(url.replace(/^sparse\+/, ""));
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  const host = normalizeHost(u.hostname);
  return host === null ? null : { host, wildcard: false, port: u.port === "" ? null : Number(u.port) };
}

function matches(entry: AllowEntry, host: string, port: number): boolean {
  const nameOk = entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
  return nameOk && (entry.port === null ? WEB_PORTS.includes(port) : entry.port === port);
}

export type AllowVerdict = { ok: true; host: string } | { ok: false; reason: string };

/** Whether `host:port`, as the client asked for it, is on the allow list. */
export function hostAllowed(hostText: string, port: number, entries: readonly AllowEntry[]): AllowVerdict {
  const host = normalizeHost(hostText);
  if (host === null) return { ok: false, reason: "not a host name" };
  if (!(Number.isInteger(port) && port > 0 && port <= 65535)) return { ok: false, reason: `not a port: ${port}` };
  if (entries.some((e) => matches(e, host, port))) return { ok: true, host };
  return { ok: false, reason: `${host}:${port} is not a package registry (add it to sandbox.allow_hosts in .github/patchgate.yml)` };
}
