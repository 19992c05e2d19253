import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { Duplex } from "node:stream";
import { OpenStreams } from "./open-streams.js";
import { resolveDestination, type DestinationRules } from "./destination.js";

/**
 * The networked setup's only way out: an HTTP proxy on the host, on a unix socket that the sandbox
 * (which has its own, empty network namespace) reaches through a forwarder on its loopback
 * (forwarder.ts). It speaks CONNECT, for HTTPS (the registries' TLS runs end to end, so the proxy
 * never sees or adds credentials), and plain absolute-form HTTP. Every request is judged by
 * resolveDestination; each decision is kept, so the run can report what was refused.
 */
export interface EgressDecision {
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  reason?: string;
}

export interface EgressProxy {
  readonly decisions: readonly EgressDecision[];
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 30_000;
// Hop-by-hop and proxy headers: they are for this proxy, not the registry.
const DROPPED_HEADERS = new Set(["proxy-authorization", "proxy-connection", "connection", "keep-alive", "te", "trailer", "upgrade"]);

/** `host:port` or `[v6]:port` of a CONNECT request. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  return m ? { host: m[1], port: Number(m[2]) } : null;
}

function refuse(socket: Duplex, status: string, reason: string): void {
  const body = `patchgate egress proxy: ${reason}\n`;
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export async function startEgressProxy(socketPath: string, rules: DestinationRules): Promise<EgressProxy> {
  const decisions: EgressDecision[] = [];
  const streams = new OpenStreams();
  const track = streams.track;
  const judge = async (method: string, host: string, port: number) => {
    const dest = await resolveDestination(host, port, rules);
    decisions.push({ method, host, port, allowed: dest.ok, ...(dest.ok ? {} : { reason: dest.reason }) });
    return dest;
  };

  const onConnect = async (req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> => {
    track(client);
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    if (!target) return refuse(client, "400 Bad Request", `not host:port: ${JSON.stringify(req.url)}`);
    const dest = await judge("CONNECT", target.host, target.port);
    if (!dest.ok) return refuse(client, "403 Forbidden", dest.reason);
    const upstream = connect({ host: dest.address, port: target.port, timeout: CONNECT_TIMEOUT_MS });
    track(upstream);
    upstream.once("timeout", () => upstream.destroy(new Error("connect timed out")));
    upstream.once("error", (e) => (upstream.connecting ? refuse(client, "502 Bad Gateway", `${dest.host}: ${e.message}`) : client.destroy()));
    upstream.once("connect", () => {
      upstream.setTimeout(0);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      client.once("close", () => upstream.destroy());
      upstream.once("close", () => client.destroy());
    });
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("patchgate egress proxy: only absolute http:// URLs or CONNECT\n");
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400, { "content-type": "text/plain" }).end(`patchgate egress proxy: ${url.protocol} goes through CONNECT\n`);
      return;
    }
    const port = url.port === "" ? 80 : Number(url.port);
    const dest = await judge(req.method ?? "GET", url.hostname, port);
    if (!dest.ok) {
      res.writeHead(403, { "content-type": "text/plain" }).end(`patchgate egress proxy: ${dest.reason}\n`);
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !DROPPED_HEADERS.has(k)));
    const upstream = request({
      host: dest.address,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host },
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on("socket", track);
    upstream.once("timeout", () => upstream.destroy(new Error("timed out")));
    upstream.once("response", (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.once("error", (e) =>
      res.headersSent ? res.destroy() : res.writeHead(502, { "content-type": "text/plain" }).end(`patchgate egress proxy: ${e.message}\n`),
    );
    req.pipe(upstream);
  };

  const server = createServer((req, res) => void onRequest(req, res));
  server.on("connect", (req, socket, head) => void onConnect(req, socket, head));
  return { decisions, close: await streams.listen(server, socketPath) };
}
