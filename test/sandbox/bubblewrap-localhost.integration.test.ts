import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SANDBOX_HOSTS } from "../../src/sandbox/sandbox-hosts.js";
import { type FormSandbox, SANDBOX_FORMS, bubblewrapIn, tempWorkspace } from "./sandbox-fixture.js";

// A server on `localhost` inside the sandbox and a client of it, in one run: vitest, jest's
// watchers and many test suites do exactly this. Prints the body it got or the error code.
const LOOPBACK_ROUND_TRIP = `
  const http = require("http");
  const server = http.createServer((q, s) => s.end("pong")).listen(0, "localhost", () => {
    http.get({ host: "localhost", port: server.address().port }, (res) => {
      let body = ""; res.on("data", (d) => body += d);
      res.on("end", () => { console.log(body); process.exit(0); });
    }).on("error", (e) => { console.log(e.code); process.exit(1); });
  }).on("error", (e) => { console.log(e.code); process.exit(1); });`;

function connect(host: string, port: number): string[] {
  const script = `
    const s = require("net").connect(${port}, ${JSON.stringify(host)});
    s.on("connect", () => { console.log("connected"); process.exit(0); });
    s.on("error", (e) => { console.log(e.code); process.exit(1); });
    setTimeout(() => { console.log("timeout"); process.exit(2); }, 2000);`;
  return ["node", "-e", script];
}

describe.each(SANDBOX_FORMS)("bubblewrap (%s): localhost", (form) => {
  let sandbox: FormSandbox;
  let hostServer: Server;
  let hostPort: number;
  let hostConnections = 0;
  const ws = tempWorkspace();

  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
    hostServer = createServer((_q, s) => s.end("host")).on("connection", () => hostConnections++);
    await new Promise<void>((resolve) => hostServer.listen(0, "127.0.0.1", resolve));
    hostPort = (hostServer.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sandbox.end();
    await new Promise((resolve) => hostServer.close(resolve));
    ws.cleanup();
  });

  test("a server bound on localhost inside the sandbox is reachable from inside it", async () => {
    const r = await sandbox.run({ argv: ["node", "-e", LOOPBACK_ROUND_TRIP], workspace: ws.dir, timeoutMs: 20_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: "pong\n" });
  });

  test("localhost resolves to the sandbox's own loopback: the host's loopback server stays unreachable", async () => {
    const before = hostConnections;
    const r = await sandbox.run({ argv: connect("localhost", hostPort), workspace: ws.dir, timeoutMs: 20_000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 1, stdout: "ECONNREFUSED\n" });
    expect(hostConnections).toBe(before);
  });

  test("the C library resolves localhost and the sandbox's own host name from the generated file", async () => {
    const r = await sandbox.run({ argv: ["getent", "ahosts", "localhost"], workspace: ws.dir, timeoutMs: 20_000 });
    const own = await sandbox.run({ argv: ["getent", "hosts", "patchgate-sandbox"], workspace: ws.dir, timeoutMs: 20_000 });
    const addresses = new Set(
      r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    );
    // ::1 too where the kernel gives the namespace an IPv6 loopback (not under every hypervisor).
    expect({ exitCode: r.exitCode, v4: addresses.has("127.0.0.1"), other: [...addresses].filter((a) => a !== "127.0.0.1" && a !== "::1") }).toEqual({
      exitCode: 0,
      v4: true,
      other: [],
    });
    expect(own.stdout.split(/\s+/)[0]).toBe("127.0.1.1");
  });

  test.each([false, true])("/etc/hosts is the generated file, never the host's (network %s)", async (network) => {
    const r = await sandbox.run({ argv: ["cat", "/etc/hosts"], workspace: ws.dir, timeoutMs: 20_000, network });
    expect(r.stdout).toBe(SANDBOX_HOSTS);
  });
});
