import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCaBundle } from "../../src/sandbox/ca-bundle.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { npmRegistryOrSkip } from "../helpers/npm-registry.js";
import { makeTestCa } from "./test-ca.js";

/**
 * A pnpm workspace set up through corepack behind a TLS-intercepting registry with its own CA: corepack
 * downloads pnpm with Node's own TLS, then pnpm installs the workspace's dependency, both from a
 * registry over TLS on the networked setup's loopback whose certificate the test's CA signed. The
 * registry serves pnpm's real tarball (fetched once from the npm registry by the test) and a package
 * the test makes.
 */

const PNPM = "9.15.9";
const FIXTURE = join(import.meta.dirname, "fixtures", "tls-registry.mjs");
// COREPACK_INTEGRITY_KEYS is set in the command, not in the run's env, whose filter refuses names with KEY in them:
// the local registry signs nothing, so corepack checks the tarball's integrity only.
const INSTALL = `COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_INTEGRITY_KEYS=0 COREPACK_NPM_REGISTRY="$REGISTRY_URL" npm_config_registry="$REGISTRY_URL/" corepack pnpm install --reporter=append-only`;

describe("corepack and pnpm behind a TLS-intercepting registry", () => {
  let root: string;
  let bundle: string;

  const workspace = (name: string): string => {
    const ws = join(root, name);
    const files: Record<string, string> = {
      "package.json": JSON.stringify({ name: "monorepo", private: true, packageManager: `pnpm@${PNPM}` }),
      "pnpm-workspace.yaml": "packages:\n  - packages/*\n",
      "packages/lib/package.json": JSON.stringify({ name: "lib", version: "1.0.0", dependencies: { "tiny-dep": "1.0.0" } }),
      "packages/app/package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { lib: "workspace:*" } }),
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(ws, path, ".."), { recursive: true });
      writeFileSync(join(ws, path), text);
    }
    const registry = join(ws, "registry");
    for (const pkg of ["pnpm", "tiny-dep"]) mkdirSync(join(registry, "packages", pkg), { recursive: true });
    for (const f of ["server.key", "server-chain.pem"]) copyFileSync(join(root, "ca", f), join(registry, f));
    copyFileSync(join(root, `pnpm-${PNPM}.tgz`), join(registry, "packages", "pnpm", `${PNPM}.tgz`));
    copyFileSync(join(root, "tiny-dep.tgz"), join(registry, "packages", "tiny-dep", "1.0.0.tgz"));
    copyFileSync(FIXTURE, join(ws, "tls-registry.mjs"));
    return ws;
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pg-ca-pnpm-"));
    mkdirSync(join(root, "ca"));
    const { caFile } = makeTestCa(join(root, "ca"));
    bundle = writeCaBundle(join(root, "data"), { NODE_EXTRA_CA_CERTS: caFile })!;
    const pkg = join(root, "tiny", "package");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "tiny-dep", version: "1.0.0", main: "index.js" }));
    writeFileSync(join(pkg, "index.js"), "module.exports = 42;\n");
    execFileSync("tar", ["-czf", join(root, "tiny-dep.tgz"), "-C", join(root, "tiny"), "package"]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const install = async (ws: string, caBundle: string | null) => {
    const chosen = await selectSandbox("bubblewrap", { caBundle });
    if (!chosen.sandbox) throw new Error(`bubblewrap unavailable: ${chosen.reason}`);
    const sandbox: Sandbox = chosen.sandbox;
    return sandbox.run({
      argv: ["node", "tls-registry.mjs", "registry", "--", "sh", "-c", INSTALL],
      workspace: ws,
      timeoutMs: 240_000,
      network: true,
      setup: true,
    });
  };

  test("without the CA bundle corepack cannot fetch pnpm; with it the workspace installs", async () => {
    if (!npmRegistryOrSkip(`pnpm@${PNPM}`, PNPM)) return;
    execFileSync("npm", ["pack", `pnpm@${PNPM}`, "--pack-destination", root], { stdio: "ignore", timeout: 120_000 });

    const refused = await install(workspace("without"), null);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr + refused.stdout).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|self[- ]signed certificate in certificate chain/);

    const ws = workspace("with");
    const r = await install(ws, bundle);
    expect({ exit: r.exitCode, out: r.stdout.slice(-2000), err: r.stderr.slice(-2000) }).toMatchObject({ exit: 0 });
    expect(r.stderr).toContain(`tls-registry: GET /pnpm/-/pnpm-${PNPM}.tgz`);
    expect(r.stderr).toMatch(/tls-registry: GET \/tiny-dep/);
    expect(existsSync(join(ws, "node_modules", ".pnpm", "tiny-dep@1.0.0", "node_modules", "tiny-dep", "index.js"))).toBe(true);
    expect(existsSync(join(ws, "packages", "app", "node_modules", "lib", "package.json"))).toBe(true);
  });
});
