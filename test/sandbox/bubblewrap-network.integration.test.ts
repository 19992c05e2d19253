import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type FormSandbox, SANDBOX_FORMS, bubblewrapIn, connectProbe as probe, tempWorkspace } from "./sandbox-fixture.js";

describe.each(SANDBOX_FORMS)("bubblewrap (%s): network", (form) => {
  let sandbox: FormSandbox;
  let server: Server;
  let port: number;
  let connections = 0;
  const ws = tempWorkspace();

  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
    server = createServer((_req, res) => res.end("hello from the host"));
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sandbox.end();
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

  test("with network on (the setup step) the host's 127.0.0.1 stays unreachable: setup has its own namespace (bubblewrap-egress.test.ts)", async () => {
    const before = connections;
    const r = await sandbox.run({ argv: probe("127.0.0.1", port), workspace: ws.dir, timeoutMs: 10_000, network: true });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 1, stdout: "ECONNREFUSED\n" });
    expect(connections).toBe(before);
  });

  test("with network on, CA files are present and no resolver configuration (the proxy resolves); without, neither", async () => {
    const script = ["sh", "-c", "for f in /etc/resolv.conf /etc/ssl/certs /etc/ssl/private; do [ -e $f ] && echo $f; done; true"];
    const off = await sandbox.run({ argv: script, workspace: ws.dir, timeoutMs: 10_000 });
    const on = await sandbox.run({ argv: script, workspace: ws.dir, timeoutMs: 10_000, network: true });
    expect(off.stdout).toBe("");
    expect(on.stdout).toBe("/etc/ssl/certs\n");
  });
});
