import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sessionExtras, withSession } from "../../src/agent/session-sandbox.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import type { Sandbox, SandboxResult } from "../../src/sandbox/types.js";
import { hostFacts } from "../../src/toolchain/host-facts.js";
import { resolveToolchains } from "../../src/toolchain/resolve.js";
import { hasProgram, missing } from "../real-layouts/layout-run.js";
import { dumpSandbox, sandboxWith, startStaticRegistry, traces, type StaticRegistry } from "./private-registry-fixture.js";
import { inForm, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

/**
 * The operator's private Go module proxy and cargo sparse registry, end to end with the real `go`
 * and `cargo` in the real bubblewrap sandbox: each registry is served by this test over TLS and
 * answers only requests carrying the credential; a repository that depends on it runs its setup
 * (networked, through the gateway) and then its tests offline, from what setup left in the session's
 * cache. The credential is looked for, by value, everywhere the sandbox can see and in what the runs
 * printed, and is not there.
 */

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

interface SessionBoxes {
  /** Every run in a sandbox of its own. */
  box: Sandbox;
  /** The session's commands in its long-lived sandbox (the form a resume's commands take). */
  longLived: FormSandbox;
  cache: string;
}

/** A session's sandboxes for a repository in `workspace`: its toolchains resolved from the host for `commands`, its own cache. */
async function sessionSandbox(sandbox: Sandbox, workspace: string, cacheRoot: string, commands: string[]): Promise<SessionBoxes> {
  const resolved = await resolveToolchains({ root: workspace, commands: commands.map((text) => ({ text, source: "test command" })), host: hostFacts() });
  expect(resolved.unmet).toEqual([]);
  const cache = await sessionCacheDir(cacheRoot, "s-1");
  const extras = sessionExtras(resolved.toolchains, cache);
  const longLived = inForm(sandbox, "long-lived");
  return { box: withSession(sandbox, extras), longLived: { ...withSession(longLived, extras), end: () => longLived.end() }, cache };
}

/** The test command run offline after setup, in both forms; each must pass. */
async function offlineTests(boxes: SessionBoxes, workspace: string, command: string): Promise<SandboxResult[]> {
  const results: SandboxResult[] = [];
  try {
    for (const box of [boxes.box, boxes.longLived]) {
      const r = await box.run({ argv: ["sh", "-c", command], workspace, timeoutMs: 600_000 });
      expect(outcome(r)).toEqual({ exitCode: 0, stderr: "" });
      results.push(r);
    }
  } finally {
    await boxes.longLived.end();
  }
  return results;
}

/** How a run ended: its stderr when it failed, and whatever the egress proxy or the gateway refused even when it passed. */
function outcome(r: SandboxResult): { exitCode: number | null; stderr: string } {
  const refused = r.stderr.split("\n").filter((l) => l.startsWith("patchgate-egress: refused"));
  return { exitCode: r.exitCode, stderr: r.exitCode === 0 ? refused.join("\n") : r.stderr.slice(-4000) };
}

function sha256(data: string | Buffer): Buffer {
  return createHash("sha256").update(data).digest();
}

/** Go's `h1:` hash of a set of files (golang.org/x/mod/sumdb/dirhash): the sha256 of the sorted lines `<sha256 hex>  <name>`. */
function h1(files: Record<string, string>): string {
  const lines = Object.keys(files)
    .sort()
    .map((name) => `${sha256(files[name]).toString("hex")}  ${name}\n`);
  return `h1:${sha256(lines.join("")).toString("base64")}`;
}

/** A zip of `files` at their names, made by python's zipfile (no zip tool needed). */
function zip(file: string, files: Record<string, string>): Buffer {
  const script = "import zipfile, sys, json\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n    for n, t in json.loads(sys.argv[2]).items(): z.writestr(n, t)\n";
  execFileSync("python3", ["-c", script, file, JSON.stringify(files)]);
  return readFileSync(file);
}

describe("go: a GOPROXY-protocol module proxy (TLS, token) served by the test, reached through the gateway", () => {
  const base = mkdtempSync(join(tmpdir(), "pg-private-go-"));
  const token = `go-secret-${createHash("sha256").update(base).digest("hex").slice(0, 24)}`;
  const MODULE = "corp.example/greet";
  const VERSION = "v1.0.0";
  const goMod = `module ${MODULE}\n\ngo 1.19\n`;
  const moduleFiles = {
    [`${MODULE}@${VERSION}/go.mod`]: goMod,
    [`${MODULE}@${VERSION}/greet.go`]:
      'package greet\n\n// Hello is the private module\'s greeting.\nfunc Hello() string { return "hello from the private proxy" }\n',
  };
  let registry: StaticRegistry;
  let sandbox: Sandbox;

  beforeAll(async () => {
    const moduleZip = zip(join(base, "module.zip"), moduleFiles);
    const at = `/goproxy/${MODULE}/@v/`;
    registry = await startStaticRegistry(join(base, "ca"), `Bearer ${token}`, (path) => {
      if (path === `${at}list`) return { type: "text/plain", body: `${VERSION}\n` };
      if (path === `${at}${VERSION}.info`) return { type: "application/json", body: JSON.stringify({ Version: VERSION, Time: "2026-01-02T03:04:05Z" }) };
      if (path === `${at}${VERSION}.mod`) return { type: "text/plain", body: goMod };
      if (path === `${at}${VERSION}.zip`) return { type: "application/zip", body: moduleZip };
      return undefined;
    });
    sandbox = await sandboxWith(
      [
        {
          name: "corp-go",
          kind: "go",
          url: `${registry.origin}/goproxy/`,
          modules: ["corp.example"],
          authorization: async () => `Bearer ${token}`,
        },
      ],
      registry.caFile,
    );
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
    rmSync(base, { recursive: true, force: true });
  });

  test("the real go downloads the private module in setup and tests offline after it; the token is nowhere inside, and every request carried it", async () => {
    if (!hasProgram("go", ["version"]) && missing("go (Debian: golang-go)")) return;
    const ws = tempWorkspace();
    try {
      writeFiles(ws.dir, {
        "go.mod": `module example.com/app\n\ngo 1.19\n\nrequire ${MODULE} ${VERSION}\n`,
        // As a repository commits it: the hashes of the module's files and of its go.mod (named plainly), so go checks what the proxy served.
        "go.sum": `${MODULE} ${VERSION} ${h1(moduleFiles)}\n${MODULE} ${VERSION}/go.mod ${h1({ "go.mod": goMod })}\n`,
        "app.go": `package app\n\nimport "${MODULE}"\n\n// Greeting is what the private module says.\nfunc Greeting() string { return greet.Hello() }\n`,
        "app_test.go":
          'package app\n\nimport "testing"\n\nfunc TestGreeting(t *testing.T) {\n\tif got := Greeting(); got != "hello from the private proxy" {\n\t\tt.Fatalf("got %q", got)\n\t}\n}\n',
      });
      const boxes = await sessionSandbox(sandbox, ws.dir, join(base, "cache"), ["go mod download", "go test ./..."]);
      const { box, cache } = boxes;
      const setup = await box.run({
        argv: ["sh", "-c", "go mod download && go build ./..."],
        workspace: ws.dir,
        timeoutMs: 300_000,
        network: true,
        setup: true,
      });
      expect(outcome(setup)).toEqual({ exitCode: 0, stderr: "" });
      expect(registry.seen.every((s) => s.authorized)).toBe(true);
      expect(registry.seen.map((s) => s.path)).toEqual(expect.arrayContaining([`/goproxy/${MODULE}/@v/${VERSION}.zip`]));

      const tests = await offlineTests(boxes, ws.dir, "go test ./...");
      for (const t of tests) expect(t.stdout).toMatch(/^ok\s+example\.com\/app/m);

      const dump = await dumpSandbox(box, ws.dir, 120_000);
      expect(dump.stdout).toContain("GOPROXY=http://127.0.0.1:3129/corp-go/goproxy/");
      expect(dump.stdout).toContain("GONOSUMDB=corp.example");
      expect(dump.truncated).toBe(false);
      expect({ setup: traces(token, setup, ws.dir, cache), tests: tests.flatMap((t) => traces(token, t)), dump: traces(token, dump) }).toEqual({
        setup: [],
        tests: [],
        dump: [],
      });
    } finally {
      ws.cleanup();
    }
  }, 900_000);

  test("a repository that commits no go.sum: setup records the sums itself, asking no checksum database for the private module", async () => {
    if (!hasProgram("go", ["version"]) && missing("go (Debian: golang-go)")) return;
    const ws = tempWorkspace();
    try {
      writeFiles(ws.dir, {
        "go.mod": `module example.com/app\n\ngo 1.19\n\nrequire ${MODULE} ${VERSION}\n`,
        "app.go": `package app\n\nimport "${MODULE}"\n\n// Greeting is what the private module says.\nfunc Greeting() string { return greet.Hello() }\n`,
      });
      const { box, cache } = await sessionSandbox(sandbox, ws.dir, join(base, "cache-no-sum"), ["go mod download", "go build ./..."]);
      const setup = await box.run({
        argv: ["sh", "-c", `go mod download ${MODULE} && go build ./...`],
        workspace: ws.dir,
        timeoutMs: 300_000,
        network: true,
        setup: true,
      });
      // Without GONOSUMDB, go asks the checksum database (through proxy.golang.org) for the module's hash: unreachable, or unknown to it; either way setup fails.
      expect(outcome(setup)).toEqual({ exitCode: 0, stderr: "" });
      expect(readFileSync(join(ws.dir, "go.sum"), "utf8").split("\n").sort()).toEqual(
        ["", `${MODULE} ${VERSION} ${h1(moduleFiles)}`, `${MODULE} ${VERSION}/go.mod ${h1({ "go.mod": goMod })}`].sort(),
      );
      expect(traces(token, setup, ws.dir, cache)).toEqual([]);
    } finally {
      ws.cleanup();
    }
  }, 900_000);
});

/** A `.crate`: a gzipped tar of `files` under `<name>-<version>/`, made by python's tarfile. */
function crateFile(file: string, files: Record<string, string>): Buffer {
  const script =
    "import tarfile, io, sys, json\nwith tarfile.open(sys.argv[1], 'w:gz') as t:\n    for n, s in json.loads(sys.argv[2]).items():\n        b = s.encode()\n        i = tarfile.TarInfo(n)\n        i.size = len(b)\n        i.mode = 0o644\n        t.addfile(i, io.BytesIO(b))\n";
  execFileSync("python3", ["-c", script, file, JSON.stringify(files)]);
  return readFileSync(file);
}

describe("cargo: a sparse registry (TLS, token, auth-required) served by the test, reached through the gateway", () => {
  const base = mkdtempSync(join(tmpdir(), "pg-private-cargo-"));
  const token = `cargo-secret-${createHash("sha256").update(base).digest("hex").slice(0, 24)}`;
  const CRATE = "corp-util";
  const crate = crateFile(join(base, `${CRATE}-1.0.0.crate`), {
    [`${CRATE}-1.0.0/Cargo.toml`]: `[package]\nname = "${CRATE}"\nversion = "1.0.0"\nedition = "2021"\n`,
    [`${CRATE}-1.0.0/src/lib.rs`]: "/// The private crate's greeting.\npub fn hello() -> &'static str {\n    \"hello from the private registry\"\n}\n",
  });
  let registry: StaticRegistry;
  let sandbox: Sandbox;

  beforeAll(async () => {
    const entry = { name: CRATE, vers: "1.0.0", deps: [], cksum: sha256(crate).toString("hex"), features: {}, yanked: false };
    registry = await startStaticRegistry(join(base, "ca"), token, (path, origin) => {
      if (path === "/index/config.json")
        return { type: "application/json", body: JSON.stringify({ dl: `${origin}/api/v1/crates`, api: origin, "auth-required": true }) };
      if (path === `/index/co/rp/${CRATE}`) return { type: "text/plain", body: `${JSON.stringify(entry)}\n` };
      if (path === `/api/v1/crates/${CRATE}/1.0.0/download`) return { type: "application/octet-stream", body: crate };
      return undefined;
    });
    sandbox = await sandboxWith([{ name: "corp-cargo", kind: "cargo", url: `${registry.origin}/index/`, authorization: async () => token }], registry.caFile);
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
    rmSync(base, { recursive: true, force: true });
  });

  test("the real cargo fetches the private crate in setup and tests offline after it; the token is nowhere inside, and every request carried it", async () => {
    if (!hasProgram("cargo") && missing("cargo (rustup, or Debian: cargo)")) return;
    const ws = tempWorkspace();
    try {
      writeFiles(ws.dir, {
        "Cargo.toml": `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${CRATE} = { version = "1", registry = "corp-cargo" }\n`,
        "src/lib.rs":
          '/// What the private crate says.\npub fn greeting() -> &\'static str {\n    corp_util::hello()\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn greets() {\n        assert_eq!(super::greeting(), "hello from the private registry");\n    }\n}\n',
      });
      const boxes = await sessionSandbox(sandbox, ws.dir, join(base, "cache"), ["cargo fetch", "cargo test --offline"]);
      const { box, cache } = boxes;
      const setup = await box.run({ argv: ["sh", "-c", "cargo fetch"], workspace: ws.dir, timeoutMs: 300_000, network: true, setup: true });
      expect(outcome(setup)).toEqual({ exitCode: 0, stderr: "" });
      expect(registry.seen.every((s) => s.authorized)).toBe(true);
      expect(registry.seen.map((s) => s.path)).toEqual(expect.arrayContaining([`/api/v1/crates/${CRATE}/1.0.0/download`]));

      // Cargo finds the crate setup fetched only through the registry's name in its config, offline too.
      const tests = await offlineTests(boxes, ws.dir, "cargo test --offline");
      for (const t of tests) expect(t.stdout).toContain("test tests::greets ... ok");

      const dump = await dumpSandbox(box, ws.dir, 120_000);
      expect(dump.stdout).toContain('index = "sparse+http://127.0.0.1:3129/corp-cargo/index/"');
      expect(dump.truncated).toBe(false);
      expect({ setup: traces(token, setup, ws.dir, cache), tests: tests.flatMap((t) => traces(token, t)), dump: traces(token, dump) }).toEqual({
        setup: [],
        tests: [],
        dump: [],
      });
    } finally {
      ws.cleanup();
    }
  }, 900_000);

  test("declared as crates.io's replacement, a plain dependency comes from it, and the tests find it offline", async () => {
    if (!hasProgram("cargo") && missing("cargo (rustup, or Debian: cargo)")) return;
    const mirror = await sandboxWith(
      [
        {
          name: "corp-mirror",
          kind: "cargo",
          url: `${registry.origin}/index/`,
          replacesCratesIo: true,
          authorization: async () => token,
        },
      ],
      registry.caFile,
    );
    const ws = tempWorkspace();
    try {
      writeFiles(ws.dir, {
        "Cargo.toml": `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n${CRATE} = "1"\n`,
        "src/lib.rs":
          '#[cfg(test)]\nmod tests {\n    #[test]\n    fn greets() {\n        assert_eq!(corp_util::hello(), "hello from the private registry");\n    }\n}\n',
      });
      const boxes = await sessionSandbox(mirror, ws.dir, join(base, "cache-mirror"), ["cargo fetch", "cargo test --offline"]);
      const setup = await boxes.box.run({ argv: ["sh", "-c", "cargo fetch"], workspace: ws.dir, timeoutMs: 300_000, network: true, setup: true });
      expect(outcome(setup)).toEqual({ exitCode: 0, stderr: "" });
      const tests = await offlineTests(boxes, ws.dir, "cargo test --offline");
      for (const t of tests) expect(t.stdout).toContain("test tests::greets ... ok");
      expect(registry.seen.every((s) => s.authorized)).toBe(true);
      expect([...traces(token, setup, ws.dir, boxes.cache), ...tests.flatMap((t) => traces(token, t))]).toEqual([]);
    } finally {
      ws.cleanup();
    }
  }, 900_000);
});
