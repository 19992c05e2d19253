import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A registry on 127.0.0.1 in front of the real npm registry, for the node packages: it answers the
 * package document with the registry's own, its tarball URLs pointed at itself, and serves those
 * tarballs as the registry does (each fetched upstream once per proxy). It counts what it is asked,
 * and in `corrupt` mode flips one byte of every tarball it serves, the registry's digest unchanged.
 */
export class NodeRegistryProxy {
  readonly requests = { documents: 0, tarballs: 0 };
  corrupt = false;
  private readonly tarballs = new Map<string, Buffer>();
  private server: Server | null = null;

  constructor(private readonly upstream = "https://registry.npmjs.org") {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.answer(req.url ?? "/").then(
        ({ status, type, body }) => {
          res.writeHead(status, { "content-type": type, "content-length": body.length });
          res.end(body);
        },
        (e: Error) => {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(e.message);
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async answer(url: string): Promise<{ status: number; type: string; body: Buffer }> {
    const tarball = /^\/tarballs\/([\w.-]+)\/([\w.-]+\.tgz)$/.exec(url);
    if (tarball) {
      this.requests.tarballs++;
      const key = `${tarball[1]}/-/${tarball[2]}`;
      if (!this.tarballs.has(key)) this.tarballs.set(key, Buffer.from(await (await upstreamGet(`${this.upstream}/${key}`)).arrayBuffer()));
      const body = Buffer.from(this.tarballs.get(key)!);
      if (this.corrupt) body[body.length >> 1] ^= 0xff;
      return { status: 200, type: "application/octet-stream", body };
    }
    const doc = /^\/(node-[a-z0-9-]+)$/.exec(url);
    if (!doc) return { status: 404, type: "text/plain", body: Buffer.from("not found") };
    this.requests.documents++;
    const res = await upstreamGet(`${this.upstream}/${doc[1]}`, { accept: "application/vnd.npm.install-v1+json" });
    const json = (await res.json()) as { versions: Record<string, { dist: { tarball: string } }> };
    for (const v of Object.values(json.versions)) v.dist.tarball = v.dist.tarball.replace(`${this.upstream}/${doc[1]}/-/`, `${this.url}tarballs/${doc[1]}/`);
    return { status: 200, type: "application/json", body: Buffer.from(JSON.stringify(json)) };
  }
}

async function upstreamGet(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res;
}
