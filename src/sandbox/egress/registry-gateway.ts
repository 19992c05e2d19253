import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { classifyAddress, type HostNetwork } from "./address-class.js";
import type { AllowEntry } from "./allow-rule.js";
import type { Lookup } from "./destination.js";
import type { EgressDecision } from "./egress-proxy.js";
import { loopbackOrigin, type PrivateRegistry } from "./private-registry.js";
import { OpenStreams } from "./open-streams.js";
import { isDeclaredPrivate } from "./private-destination.js";
import { credentialForms, isRewritable, rewriteLocation, rewriteOrigin, withoutCargoAuthRequired, withoutCredential } from "./registry-rewrite.js";

/**
 * The host half of the operator's private registries. The sandbox asks
 * `http://127.0.0.1:REGISTRY_PORT/<name>/<path>` without any credential; the forwarder relays that
 * to this server's unix socket, which re-originates the request to `https://<the registry's
 * host>/<path>` with the credential in `Authorization`, verifying the registry's certificate against
 * the operator's CA bundle (or Node's roots), and connecting to an address it checked: a public one,
 * or any when the operator declared the registry's host and port a private destination.
 *
 * The credential goes to that origin and nowhere else: the gateway never follows a redirect (it
 * hands it back, under the loopback when it stays on the origin, as it is otherwise, so the client
 * follows it through the egress proxy without the credential), and what the client sent as
 * `Authorization` or cookies is dropped. Answers come back uncompressed so their URLs can be put
 * under the loopback (registry-rewrite.ts), and the credential taken out of any that quotes it; a
 * cookie the registry sets never reaches the sandbox.
 */
export interface GatewayOptions {
  registries: readonly PrivateRegistry[];
  hostNetworks: readonly HostNetwork[];
  lookup: Lookup;
  /** The operator's private destinations (private-destination.ts): a registry at one of them may resolve to any address. */
  privateDestinations?: readonly AllowEntry[];
  /** PEM of the certificates trusted for the registries (ca-bundle.ts); Node's roots when absent. */
  ca?: string;
  /** The session's GitHub installation token, for registries whose credential it is (GitHub Packages). */
  installationToken?: string;
}

export interface RegistryGateway {
  readonly decisions: readonly EgressDecision[];
  close(): Promise<void>;
}

const TIMEOUT_MS = 60_000;
const DROPPED_REQUEST_HEADERS = new Set([
  "authorization",
  "cookie",
  "proxy-authorization",
  "proxy-connection",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "upgrade",
  "host",
  "accept-encoding",
  "content-length",
]);
const DROPPED_RESPONSE_HEADERS = new Set(["set-cookie", "connection", "keep-alive", "transfer-encoding", "content-length", "location"]);

type Target = { ok: true; address: string } | { ok: false; reason: string };

/** The address to connect to: the registry's name resolved, each address public unless the operator declared the name and port private. */
async function resolveRegistry(host: string, port: number, opts: GatewayOptions): Promise<Target> {
  let addresses: string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await opts.lookup(host);
  } catch (e) {
    return { ok: false, reason: `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
  if (!isDeclaredPrivate(host, port, opts.privateDestinations ?? [])) {
    for (const address of addresses) {
      const verdict = classifyAddress(address, opts.hostNetworks);
      if (verdict.ok) continue;
      const where = address === host ? `${host} is ${verdict.reason}` : `${host} is at ${address}, which is ${verdict.reason}`;
      return { ok: false, reason: `${where} (the operator declares it in PATCHGATE_PRIVATE_DESTINATIONS)` };
    }
  }
  return { ok: true, address: addresses[0] };
}

function fail(res: ServerResponse, status: number, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "text/plain" }).end(`patchgate registry gateway: ${reason}\n`);
}

export async function startRegistryGateway(socketPath: string, opts: GatewayOptions): Promise<RegistryGateway> {
  const decisions: EgressDecision[] = [];
  const byName = new Map(opts.registries.map((r) => [r.name, r]));
  const streams = new OpenStreams();

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const m = /^\/([a-z0-9-]+)(\/[^#]*)?$/.exec(req.url ?? "");
    const registry = m ? byName.get(m[1]) : undefined;
    if (!m || !registry) return fail(res, 404, `no registry at ${JSON.stringify((req.url ?? "").split("?")[0])}`);
    const origin = new URL(registry.url);
    const target = new URL(`${origin.origin}${m[2] ?? "/"}`);
    const port = Number(target.port || 443);
    const method = req.method ?? "GET";
    const judged = await resolveRegistry(target.hostname.replace(/^\[|\]$/g, ""), port, opts);
    decisions.push({ method, host: target.hostname, port, allowed: judged.ok, ...(judged.ok ? {} : { reason: judged.reason }) });
    if (!judged.ok) return fail(res, 502, `${registry.name}: ${judged.reason}`);

    const headers: OutgoingHttpHeaders = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !DROPPED_REQUEST_HEADERS.has(k)));
    let authorization: string;
    try {
      authorization = await registry.authorization({ installationToken: opts.installationToken });
    } catch (e) {
      return fail(res, 502, `${registry.name}: no credential (${(e as Error).message})`);
    }
    const loopback = loopbackOrigin(registry.name);
    const upstream = httpsRequest({
      host: judged.address,
      port,
      method,
      path: `${target.pathname}${target.search}`,
      // The name the certificate must carry; an IP literal is checked against the certificate's IP names instead.
      ...(isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
      headers: { ...headers, host: target.host, authorization, "accept-encoding": "identity" },
      ...(opts.ca ? { ca: opts.ca } : {}),
      agent: false,
      timeout: TIMEOUT_MS,
    });
    upstream.on("socket", streams.track);
    upstream.once("timeout", () => upstream.destroy(new Error("timed out")));
    upstream.once("error", (e) => fail(res, 502, `${registry.name}: ${e.message}`));
    upstream.once("response", (up) => {
      const out: OutgoingHttpHeaders = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !DROPPED_RESPONSE_HEADERS.has(k)));
      if (up.headers.location) out.location = rewriteLocation(up.headers.location, target, loopback);
      if (!isRewritable(up.headers["content-type"])) {
        if (up.headers["content-length"]) out["content-length"] = up.headers["content-length"];
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on("data", (c: Buffer) => chunks.push(c));
      up.once("error", () => res.destroy());
      up.once("end", () => {
        let text = withoutCredential(rewriteOrigin(Buffer.concat(chunks).toString("utf8"), origin, loopback), credentialForms(authorization));
        if (registry.kind === "cargo" && target.pathname.endsWith("/config.json")) text = withoutCargoAuthRequired(text);
        const body = Buffer.from(text, "utf8");
        res.writeHead(up.statusCode ?? 502, { ...out, "content-length": String(body.length) }).end(body);
      });
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => void onRequest(req, res));
  return { decisions, close: await streams.listen(server, socketPath) };
}
