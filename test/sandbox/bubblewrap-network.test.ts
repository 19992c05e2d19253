import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Sandbox } from "../../src/sandbox/types.js";
import { bubblewrap, tempWorkspace } from "./sandbox-fixture.js";

// Prints "connected" or the socket error code; exits on its own after 2 s so a silent drop is visible too.
function probe(host: string, port: number): string[] {
  const script = `
    const s = require("net").connect(${port}, ${JSON.stringify(host)});
    s.on("connect", () => { console.log("connected"); process.exit(0); });
    s.on("error", (e) => { console.log(e.code); process.exit(1); });
    setTimeout(() => { console.log("timeout"); process.exit(2); }, 2000);`;
  return ["node", "-e", script];
}

describe("bubblewrap: network", () => {
  let sandbox: Sandbox;
  let server: Server;
  let port: number;
  let connections = 0;
  const ws = tempWorkspace();

  beforeAll(async () => {
    sandbox = await bubblewrap();
    server = createServer((_req, res) => res.end("hello from the host"));
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    ws.cleanup();
  });

  test("a server on the host's 127.0.0.1 is unreachable (the sandbox has its own loopback)", async () => {
    const before = connections;
    const r = await sandbox.run({ argv: probe("127.0.0.1", port), workspace: ws.dir, timeoutMs: 10_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 1, stdout: "ECONNREFUSED\n" });
    expect(connections).toBe(before);
  });

  test("an outside address has no route at all", async () => {
    const r = await sandbox.run({ argv: probe("192.0.2.1", 80), workspace: ws.dir, timeoutMs: 10_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 1, stdout: "ENETUNREACH\n" });
  });

  test("control: with network on (the setup step) the same probe reaches the host server", async () => {
    const before = connections;
    const r = await sandbox.run({ argv: probe("127.0.0.1", port), workspace: ws.dir, timeoutMs: 10_000, network: true });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: "connected\n" });
    expect(connections).toBe(before + 1);
  });

  test("with network on, DNS and CA files are present; without, they are not", async () => {
    const script = ["sh", "-c", "for f in /etc/resolv.conf /etc/ssl/certs /etc/ssl/private; do [ -e $f ] && echo $f; done; true"];
    const off = await sandbox.run({ argv: script, workspace: ws.dir, timeoutMs: 10_000 });
    const on = await sandbox.run({ argv: script, workspace: ws.dir, timeoutMs: 10_000, network: true });
    expect(off.stdout).toBe("");
    expect(on.stdout).toBe("/etc/resolv.conf\n/etc/ssl/certs\n");
  });
});
