import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowEntryFromUrl } from "../../../src/sandbox/egress/allow-rule.js";
import type { PrivateRegistry } from "../../../src/sandbox/egress/private-registry.js";
import { startRegistryGateway, type GatewayOptions, type RegistryGateway } from "../../../src/sandbox/egress/registry-gateway.js";
import { makeTestCa } from "../test-ca.js";

/**
 * The gateway between the sandbox's loopback registry endpoint and the real registry, against real
 * TLS servers with a test CA: what the registry gets (the credential, and only it), what the sandbox
 * gets back, and what is refused before any byte reaches a registry.
 */
const TOKEN = "registry-token-0123456789abcdef";

interface Seen {
  path: string;
  authorization?: string;
  cookie?: string;
}

type Answer = { status: number; headers: Record<string, string>; body: string };

interface TlsServer {
  server: Server;
  origin: string;
  seen: Seen[];
}

describe("the private registries' gateway", () => {
  const dir = mkdtempSync(join(tmpdir(), "pg-gateway-"));
  const { caFile } = makeTestCa(dir);
  const ca = readFileSync(caFile, "utf8");
  const tls = { key: readFileSync(join(dir, "server.key")), cert: readFileSync(join(dir, "server.pem")) };
  let registry: TlsServer;
  let elsewhere: TlsServer;
  const gateways: RegistryGateway[] = [];

  async function serve(host: string, answer: (path: string, origin: string) => Answer): Promise<TlsServer> {
    const seen: Seen[] = [];
    const out: TlsServer = { server: createServer(tls), origin: "", seen };
    out.server.on("request", (req, res) => {
      seen.push({ path: req.url ?? "", authorization: req.headers.authorization, cookie: req.headers.cookie });
      const a = answer(req.url ?? "", out.origin);
      res.writeHead(a.status, a.headers).end(a.body);
    });
    await new Promise<void>((resolve) => out.server.listen(0, "127.0.0.1", resolve));
    out.origin = `https://${host}:${(out.server.address() as AddressInfo).port}`;
    return out;
  }

  beforeAll(async () => {
    elsewhere = await serve("localhost", () => ({ status: 200, headers: {}, body: "elsewhere" }));
    registry = await serve("127.0.0.1", (path, origin): Answer => {
      if (path === "/npm/pkg")
        return {
          status: 200,
          headers: { "content-type": "application/json", "set-cookie": "session=abc" },
          body: JSON.stringify({ tarball: `${origin}/npm/pkg/-/pkg-1.0.0.tgz`, other: `${elsewhere.origin}/x.tgz` }),
        };
      if (path === "/npm/moved") return { status: 302, headers: { location: "/npm/pkg" }, body: "" };
      if (path === "/npm/away") return { status: 302, headers: { location: `${elsewhere.origin}/x.tgz` }, body: "" };
      if (path === "/npm/echo") return { status: 401, headers: { "content-type": "text/plain" }, body: `bad credential: Bearer ${TOKEN}` };
      return { status: 404, headers: {}, body: "" };
    });
  });
  afterAll(async () => {
    for (const g of gateways) await g.close();
    await new Promise((r) => registry.server.close(r));
    await new Promise((r) => elsewhere.server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    registry.seen.length = 0;
    elsewhere.seen.length = 0;
  });

  let n = 0;
  async function gateway(r: Partial<PrivateRegistry>, opts: Partial<GatewayOptions> = {}): Promise<{ socket: string; gateway: RegistryGateway }> {
    const socket = join(dir, `gw-${n++}.sock`);
    const declared: PrivateRegistry = { name: "corp", kind: "npm", url: `${registry.origin}/npm/`, authorization: async () => `Bearer ${TOKEN}`, ...r };
    const g = await startRegistryGateway(socket, {
      registries: [declared],
      hostNetworks: [],
      lookup: async () => ["127.0.0.1"],
      // The test registry is on loopback: its host and port declared, as an operator declares an internal registry.
      privateDestinations: [allowEntryFromUrl(declared.url)!],
      ca,
      ...opts,
    });
    gateways.push(g);
    return { socket, gateway: g };
  }

  function get(
    socket: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ socketPath: socket, path, headers }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.once("error", reject);
      req.end();
    });
  }

  test("the registry gets the credential, not what the sandbox sent; its URLs come back under the loopback, its cookie does not", async () => {
    const { socket } = await gateway({});
    const r = await get(socket, "/corp/npm/pkg", { authorization: "Bearer from-the-sandbox", cookie: "a=b" });
    expect(registry.seen).toEqual([{ path: "/npm/pkg", authorization: `Bearer ${TOKEN}` }]);
    expect({ status: r.status, cookie: r.headers["set-cookie"], body: JSON.parse(r.body) as unknown }).toEqual({
      status: 200,
      cookie: undefined,
      body: { tarball: "http://127.0.0.1:3129/corp/npm/pkg/-/pkg-1.0.0.tgz", other: `${elsewhere.origin}/x.tgz` },
    });
  });

  test("a redirect is never followed: on the origin it comes back under the loopback, elsewhere as it is, and the other host gets nothing", async () => {
    const { socket } = await gateway({});
    const moved = await get(socket, "/corp/npm/moved");
    const away = await get(socket, "/corp/npm/away");
    expect([moved.status, moved.headers.location, away.status, away.headers.location]).toEqual([
      302,
      "http://127.0.0.1:3129/corp/npm/pkg",
      302,
      `${elsewhere.origin}/x.tgz`,
    ]);
    expect(elsewhere.seen).toEqual([]);
  });

  test("a registry's answer that quotes the credential reaches the sandbox without it", async () => {
    const { socket } = await gateway({});
    const r = await get(socket, "/corp/npm/echo");
    expect({ status: r.status, body: r.body }).toEqual({ status: 401, body: "bad credential: [REDACTED]" });
  });

  test("a registry on a private address is refused unless declared so, before any connection", async () => {
    const { socket, gateway: g } = await gateway({}, { privateDestinations: [] });
    const r = await get(socket, "/corp/npm/pkg");
    expect(r).toMatchObject({
      status: 502,
      body: "patchgate registry gateway: corp: 127.0.0.1 is loopback (the operator declares it in PATCHGATE_PRIVATE_DESTINATIONS)\n",
    });
    expect(registry.seen).toEqual([]);
    expect(g.decisions).toEqual([
      { method: "GET", host: "127.0.0.1", port: Number(new URL(registry.origin).port), allowed: false, reason: expect.any(String) },
    ]);
  });

  test("a private destination declared on another port does not cover the registry", async () => {
    const port = Number(new URL(registry.origin).port);
    const { socket } = await gateway({}, { privateDestinations: [{ host: "127.0.0.1", wildcard: false, port: port === 65535 ? 1 : port + 1 }] });
    const r = await get(socket, "/corp/npm/pkg");
    expect(r).toMatchObject({ status: 502, body: expect.stringContaining("127.0.0.1 is loopback") });
    expect(registry.seen).toEqual([]);
  });

  test("the registry's certificate is verified: an untrusted CA or a name it does not carry gets no request", async () => {
    const untrusted = await gateway({}, { ca: undefined });
    const r1 = await get(untrusted.socket, "/corp/npm/pkg");
    const port = new URL(registry.origin).port;
    const misnamed = await gateway({ url: `https://npm.corp.test:${port}/npm/` });
    const r2 = await get(misnamed.socket, "/corp/npm/pkg");
    expect([r1.status, r1.body, r2.status, r2.body]).toEqual([
      502,
      // Node 24 adds a hint to the end of OpenSSL's words.
      expect.stringMatching(/^patchgate registry gateway: corp: unable to verify the first certificate/),
      502,
      expect.stringMatching(/^patchgate registry gateway: corp: Hostname\/IP does not match certificate's altnames: Host: npm\.corp\.test/),
    ]);
    expect(registry.seen).toEqual([]);
  });

  test("a path that names no declared registry is answered here", async () => {
    const { socket } = await gateway({});
    const r = await get(socket, "/other/npm/pkg");
    expect({ status: r.status, body: r.body }).toEqual({ status: 404, body: 'patchgate registry gateway: no registry at "/other/npm/pkg"\n' });
    expect(registry.seen).toEqual([]);
  });
});
