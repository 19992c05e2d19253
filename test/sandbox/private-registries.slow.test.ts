import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowEntryFromUrl } from "../../src/sandbox/egress/allow-rule.js";
import type { PrivateRegistry } from "../../src/sandbox/egress/private-registry.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox, SandboxResult } from "../../src/sandbox/types.js";
import { startPrivateNpmRegistry, type PrivateNpmRegistry } from "../helpers/verdaccio.js";
import { makeTestCa } from "./test-ca.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/**
 * The operator's private registries, end to end with the real clients in the real bubblewrap
 * sandbox: verdaccio over TLS requiring a token for npm, and a PEP 503 index served by this test
 * over TLS requiring basic auth for pip. The setup installs only from them; the credential is looked
 * for, by value, everywhere the sandbox can see and in what the run printed, and is not there.
 */

/** Everything a command inside can read that could hold a credential: its environment, every process's argv and environment, npm's user and project config, every file in HOME, /tmp and /run. */
const DUMP = [
  "env",
  "for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null",
  "cat ~/.npmrc /workspace/.npmrc 2>/dev/null",
  "find ~ /tmp /run -type f -exec cat {} + 2>/dev/null",
  "true",
].join("; ");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Where `secret` appears: in the run's output, or in a workspace file (the host side of the workspace). */
function traces(secret: string, result: SandboxResult, workspace: string): string[] {
  const found = [result.stdout.includes(secret) && "stdout", result.stderr.includes(secret) && "stderr"].filter((x): x is string => !!x);
  for (const f of filesUnder(workspace)) if (readFileSync(f).includes(secret)) found.push(f);
  return found;
}

/** The test registries listen on loopback: the operator declares each one's host and port a private destination. */
async function sandboxWith(registries: PrivateRegistry[], caBundle: string): Promise<Sandbox> {
  const privateDestinations = registries.map((r) => allowEntryFromUrl(r.url)!);
  const chosen = await selectSandbox("bubblewrap", { caBundle, registries, privateDestinations });
  if (chosen.sandbox === null) throw new Error(`bubblewrap unavailable: ${chosen.reason}`);
  return chosen.sandbox;
}

function npmPackage(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", main: "index.js" }));
  writeFileSync(join(dir, "index.js"), body);
  return dir;
}

describe("npm: a private registry (verdaccio, TLS, token) reached through the gateway", () => {
  const base = mkdtempSync(join(tmpdir(), "pg-private-npm-"));
  let registry: PrivateNpmRegistry;
  let sandbox: Sandbox;

  beforeAll(async () => {
    registry = await startPrivateNpmRegistry(join(base, "verdaccio"));
    registry.publish(npmPackage(join(base, "greeting"), "@corp/greeting", 'module.exports = "hello from the private scope";\n'));
    registry.publish(npmPackage(join(base, "words"), "corp-words", 'module.exports = "words from the private default registry";\n'));
    const authorization = async () => `Bearer ${registry.token}`;
    sandbox = await sandboxWith(
      [
        { name: "corp-npm", kind: "npm", url: registry.url, authorization },
        { name: "corp-scope", kind: "npm", url: registry.url, scope: "@corp", authorization },
      ],
      // The operator's bundle: the test CA is the only root it names.
      registry.caFile,
    );
  }, 120_000);
  afterAll(async () => {
    await registry?.stop();
    rmSync(base, { recursive: true, force: true });
  });

  test("a repository whose dependencies come only from it installs in setup, and the token is nowhere inside", async () => {
    const ws = tempWorkspace();
    try {
      writeFileSync(
        join(ws.dir, "package.json"),
        JSON.stringify({ name: "app", version: "0.0.0", dependencies: { "@corp/greeting": "1.0.0", "corp-words": "1.0.0" } }),
      );
      writeFileSync(join(ws.dir, ".npmrc"), "fund=false\n");
      const install = await sandbox.run({
        argv: ["sh", "-c", 'npm install --no-audit --no-fund && node -e \'console.log(require("@corp/greeting")); console.log(require("corp-words"))\''],
        workspace: ws.dir,
        timeoutMs: 240_000,
        network: true,
        setup: true,
      });
      expect({ exitCode: install.exitCode, stdout: install.stdout.trim().split("\n").slice(-2), stderr: install.exitCode === 0 ? "" : install.stderr }).toEqual(
        {
          exitCode: 0,
          stdout: ["hello from the private scope", "words from the private default registry"],
          stderr: "",
        },
      );
      const lock = readFileSync(join(ws.dir, "package-lock.json"), "utf8");
      expect(lock).toContain('"resolved": "http://127.0.0.1:3129/corp-scope/@corp/greeting/-/greeting-1.0.0.tgz"');

      const dump = await sandbox.run({
        argv: ["sh", "-c", DUMP],
        workspace: ws.dir,
        timeoutMs: 60_000,
        network: true,
        limits: { maxOutputBytes: 64 * 1024 * 1024 },
      });
      expect(dump.stdout).toContain("@corp:registry=http://127.0.0.1:3129/corp-scope/");
      expect(dump.truncated).toBe(false);
      expect({ install: traces(registry.token, install, ws.dir), dump: traces(registry.token, dump, ws.dir) }).toEqual({ install: [], dump: [] });
    } finally {
      ws.cleanup();
    }
  }, 600_000);
});

/** A wheel by hand (a zip with the package and its dist-info), so no build backend runs. */
function makeWheel(dir: string): { file: string; sha256: string } {
  const file = join(dir, "corp_tool-1.0-py3-none-any.whl");
  const script = `
import zipfile, sys
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("corp_tool/__init__.py", "GREETING = 'hello from the private index'\\n")
    z.writestr("corp_tool-1.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: corp-tool\\nVersion: 1.0\\n")
    z.writestr("corp_tool-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr("corp_tool-1.0.dist-info/RECORD", "")
`;
  execFileSync("python3", ["-c", script, file]);
  return { file, sha256: createHash("sha256").update(readFileSync(file)).digest("hex") };
}

describe("pip: a PEP 503 index (TLS, basic auth) served by the test, reached through the gateway", () => {
  const base = mkdtempSync(join(tmpdir(), "pg-private-pip-"));
  const password = `pip-secret-${createHash("sha256").update(base).digest("hex").slice(0, 24)}`;
  const expected = `Basic ${Buffer.from(`reader:${password}`).toString("base64")}`;
  const seen: { path: string; authorized: boolean }[] = [];
  let server: Server;
  let url: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    const { caFile } = makeTestCa(base);
    const wheel = makeWheel(base);
    server = createServer({ key: readFileSync(join(base, "server.key")), cert: readFileSync(join(base, "server.pem")) }, (req, res) => {
      const authorized = req.headers.authorization === expected;
      seen.push({ path: req.url ?? "", authorized });
      if (!authorized) return void res.writeHead(401, { "www-authenticate": 'Basic realm="corp"' }).end();
      if (req.url === "/simple/corp-tool/")
        return void res
          .writeHead(200, { "content-type": "text/html" })
          .end(
            `<!DOCTYPE html><html><body><a href="${url}files/corp_tool-1.0-py3-none-any.whl#sha256=${wheel.sha256}">corp_tool-1.0-py3-none-any.whl</a></body></html>`,
          );
      if (req.url === "/files/corp_tool-1.0-py3-none-any.whl")
        return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(wheel.file));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const authorization = async () => expected;
    sandbox = await sandboxWith([{ name: "corp-pypi", kind: "pip", url: `${url}simple/`, authorization }], caFile);
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(base, { recursive: true, force: true });
  });

  test("the real pip installs from it in setup; the password is nowhere inside, and every request it got carried it", async () => {
    const ws = tempWorkspace();
    try {
      const install = await sandbox.run({
        argv: [
          "sh",
          "-c",
          "python3 -m pip install --no-cache-dir --disable-pip-version-check --break-system-packages --target /workspace/pylib corp-tool && PYTHONPATH=/workspace/pylib python3 -c 'import corp_tool; print(corp_tool.GREETING)'",
        ],
        workspace: ws.dir,
        timeoutMs: 240_000,
        network: true,
        setup: true,
      });
      expect({ exitCode: install.exitCode, last: install.stdout.trim().split("\n").at(-1), stderr: install.exitCode === 0 ? "" : install.stderr }).toEqual({
        exitCode: 0,
        last: "hello from the private index",
        stderr: "",
      });
      expect(seen.map((s) => s.path)).toEqual(["/simple/corp-tool/", "/files/corp_tool-1.0-py3-none-any.whl"]);
      expect(seen.every((s) => s.authorized)).toBe(true);
      const dump = await sandbox.run({
        argv: ["sh", "-c", DUMP],
        workspace: ws.dir,
        timeoutMs: 60_000,
        network: true,
        limits: { maxOutputBytes: 64 * 1024 * 1024 },
      });
      expect(dump.stdout).toContain("PIP_INDEX_URL=http://127.0.0.1:3129/corp-pypi/simple/");
      const b64 = expected.slice("Basic ".length);
      expect({ password: [...traces(password, install, ws.dir), ...traces(password, dump, ws.dir)], header: traces(b64, dump, ws.dir) }).toEqual({
        password: [],
        header: [],
      });
    } finally {
      ws.cleanup();
    }
  }, 600_000);
});
