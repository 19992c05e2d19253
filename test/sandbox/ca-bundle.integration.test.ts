import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCaBundle } from "../../src/sandbox/ca-bundle.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { makeTestCa } from "./test-ca.js";

/**
 * Behind a TLS-intercepting proxy every registry's certificate is signed by the proxy's CA, which
 * the host trusts and a sandboxed tool does not unless Patchgate hands it the CA bundle. Here the
 * "proxy" is a registry over TLS on the networked setup's loopback, with a CA made by the test: a
 * download with Node's own TLS fails without the bundle and succeeds with it, and each tool's CA
 * variable names the bundle bound read-only at its own path.
 */

const FIXTURE = join(import.meta.dirname, "fixtures", "tls-registry.mjs");
const FETCH = `fetch(process.env.REGISTRY_URL + "/hello").then((r) => r.text()).then((t) => console.log("fetched", t), (e) => { console.log("failed", e.cause?.code ?? e.code ?? e.message); process.exit(1); })`;

describe("the operator's CA bundle reaches networked setup", () => {
  let root: string;
  let ws: string;
  let bundle: string;
  let withCa: Sandbox;
  let withoutCa: Sandbox;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "pg-ca-"));
    const ca = join(root, "ca");
    mkdirSync(ca);
    const { caFile } = makeTestCa(ca);
    ws = join(root, "ws");
    mkdirSync(join(ws, "registry", "packages", "hello"), { recursive: true });
    for (const f of ["server.key", "server-chain.pem"]) copyFileSync(join(ca, f), join(ws, "registry", f));
    copyFileSync(FIXTURE, join(ws, "tls-registry.mjs"));
    // The host's default: its NODE_EXTRA_CA_CERTS (here the test's CA) and the system bundle, in one file.
    bundle = writeCaBundle(join(root, "data"), { NODE_EXTRA_CA_CERTS: caFile })!;
    const a = await selectSandbox("bubblewrap", { caBundle: bundle });
    const b = await selectSandbox("bubblewrap");
    if (!a.sandbox || !b.sandbox) throw new Error(`bubblewrap unavailable: ${a.reason ?? b.reason}`);
    withCa = a.sandbox;
    withoutCa = b.sandbox;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const setup = (sandbox: Sandbox, argv: string[], env: Record<string, string> = {}) =>
    sandbox.run({ argv: ["node", "tls-registry.mjs", "registry", "--", ...argv], workspace: ws, timeoutMs: 60_000, network: true, setup: true, env });

  test("without the bundle, Node's fetch refuses the intercepting CA", async () => {
    const r = await setup(withoutCa, ["node", "-e", FETCH]);
    expect(r.stdout).toBe("failed SELF_SIGNED_CERT_IN_CHAIN\n");
    expect(r.exitCode).toBe(1);
  });

  test("with the bundle, the same fetch succeeds", async () => {
    const r = await setup(withCa, ["node", "-e", FETCH]);
    expect(r.stdout).toBe(`fetched {"name":"hello","dist-tags":{},"versions":{}}\n`);
    expect(r.stderr).toContain("tls-registry: GET /hello");
    expect(r.exitCode).toBe(0);
  });

  test("every tool's CA variable names the bundle, bound read-only with the host's certificates, whatever the setup's env says", async () => {
    const script = `
      const fs = require("fs");
      const names = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "PIP_CERT", "REQUESTS_CA_BUNDLE", "CARGO_HTTP_CAINFO", "GIT_SSL_CAINFO", "npm_config_cafile"];
      console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, process.env[n]]))));
      const file = process.env.SSL_CERT_FILE;
      console.log(fs.readFileSync(file, "utf8") === fs.readFileSync("/workspace/expected.pem", "utf8") ? "same" : "different");
      try { fs.appendFileSync(file, "x"); console.log("written"); } catch (e) { console.log(e.code); }`;
    copyFileSync(bundle, join(ws, "expected.pem"));
    const r = await setup(withCa, ["node", "-e", script], { SSL_CERT_FILE: "/workspace/other.pem", npm_config_cafile: "/workspace/other.pem" });
    const [vars, same, write] = r.stdout.trim().split("\n");
    const inside = "/run/patchgate-ca/ca-bundle.pem";
    expect(JSON.parse(vars)).toEqual({
      NODE_EXTRA_CA_CERTS: inside,
      SSL_CERT_FILE: inside,
      PIP_CERT: inside,
      REQUESTS_CA_BUNDLE: inside,
      CARGO_HTTP_CAINFO: inside,
      GIT_SSL_CAINFO: inside,
      npm_config_cafile: inside,
    });
    expect(same).toBe("same");
    // Read-only twice over: the file's mode, and the bind (uid 0 inside has no capability to pass the mode).
    expect(["EACCES", "EROFS"]).toContain(write);
    expect(readFileSync(join(ws, "expected.pem"), "utf8")).toBe(readFileSync(bundle, "utf8"));
    expect(readFileSync(bundle, "utf8")).toContain(readFileSync(join(root, "ca", "ca.pem"), "utf8").trim());
  });

  test("a run without network gets neither the file nor the variables", async () => {
    const r = await withCa.run({
      argv: ["node", "-e", `console.log(process.env.NODE_EXTRA_CA_CERTS ?? "unset", require("fs").existsSync("/run/patchgate-ca/ca-bundle.pem"))`],
      workspace: ws,
      timeoutMs: 30_000,
    });
    expect(r.stdout).toBe("unset false\n");
  });
});
