import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Sandbox } from "../../src/sandbox/types.js";
import { startPrivateNpmRegistry, type PrivateNpmRegistry } from "../helpers/verdaccio.js";
import { dumpSandbox, sandboxWith, startStaticRegistry, traces, type StaticRegistry } from "./private-registry-fixture.js";
import { tempWorkspace } from "./sandbox-fixture.js";

/**
 * The operator's private registries, end to end with the real clients in the real bubblewrap
 * sandbox: verdaccio over TLS requiring a token for npm, and a PEP 503 index served by this test
 * over TLS requiring basic auth for pip. The setup installs only from them; the credential is looked
 * for, by value, everywhere the sandbox can see and in what the run printed, and is not there.
 */

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

      const dump = await dumpSandbox(sandbox, ws.dir, 60_000);
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
  let registry: StaticRegistry;
  let sandbox: Sandbox;

  beforeAll(async () => {
    const wheel = makeWheel(base);
    registry = await startStaticRegistry(join(base, "ca"), expected, (path, origin) => {
      if (path === "/simple/corp-tool/")
        return {
          type: "text/html",
          body: `<!DOCTYPE html><html><body><a href="${origin}/files/corp_tool-1.0-py3-none-any.whl#sha256=${wheel.sha256}">corp_tool-1.0-py3-none-any.whl</a></body></html>`,
        };
      if (path === "/files/corp_tool-1.0-py3-none-any.whl") return { type: "application/octet-stream", body: readFileSync(wheel.file) };
      return undefined;
    });
    const authorization = async () => expected;
    sandbox = await sandboxWith([{ name: "corp-pypi", kind: "pip", url: `${registry.origin}/simple/`, authorization }], registry.caFile);
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
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
      expect(registry.seen.map((s) => s.path)).toEqual(["/simple/corp-tool/", "/files/corp_tool-1.0-py3-none-any.whl"]);
      expect(registry.seen.every((s) => s.authorized)).toBe(true);
      const dump = await dumpSandbox(sandbox, ws.dir, 60_000);
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
