import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sessionExtras, withSession } from "../../src/agent/session-sandbox.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { resolveToolchains } from "../../src/toolchain/resolve.js";
import type { HostFacts, ToolchainRecord } from "../../src/toolchain/types.js";
import { bubblewrap, NODE_DIR_OUTSIDE_USR, sh, tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { file, FakeHost, SECRET } from "./layouts.js";

/**
 * Each version manager's layout, built under a temporary HOME: the toolchain it resolves to runs in
 * the real bubblewrap sandbox at its own path, and the files beside it in that HOME do not exist there.
 */
describe("toolchains from version managers, in the sandbox", () => {
  let sandbox: Sandbox;
  let host: FakeHost;
  let ws: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });
  beforeEach(() => {
    host = new FakeHost();
    ws = tempWorkspace("pg-tc-ws-");
  });
  afterEach(() => {
    host.cleanup();
    ws.cleanup();
  });

  async function resolve(test: string, facts: HostFacts = host.facts()): Promise<ToolchainRecord[]> {
    const r = await resolveToolchains({ root: ws.dir, commands: [{ text: test, source: "test command" }], host: facts });
    expect(r.unmet).toEqual([]);
    return r.toolchains;
  }

  async function inSandbox(toolchains: ToolchainRecord[], script: string, setup = false) {
    const cache = await sessionCacheDir(join(host.root, "cache"), "s-1");
    return sh(withSession(sandbox, sessionExtras(toolchains, cache)), ws.dir, script, { setup });
  }

  /** Nothing of HOME but the toolchain: the secrets are absent, HOME lists only the managers' directories. */
  async function expectHomeHidden(toolchains: ToolchainRecord[], visibleEntries: string[]) {
    const r = await inSandbox(toolchains, `cat ${host.home}/.env ${host.home}/.ssh/id_rsa; ls -A ${host.home}`);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stderr).toContain(`${host.home}/.env: No such file or directory`);
    expect(r.stderr).toContain(`${host.home}/.ssh/id_rsa: No such file or directory`);
    expect(r.stdout.split("\n").filter(Boolean).sort()).toEqual(visibleEntries);
  }

  test("rustup: the proxy in ~/.cargo/bin is followed to the default toolchain's own bin, which runs; HOME stays hidden", async () => {
    host.rustup(
      [
        { name: "stable-x86_64-unknown-linux-gnu", rustc: "1.95.0" },
        { name: "nightly-x86_64-unknown-linux-gnu", rustc: "1.97.0-nightly" },
      ],
      "stable-x86_64-unknown-linux-gnu",
    );
    const toolchains = await resolve("cargo test");
    const dir = join(host.home, ".rustup", "toolchains", "stable-x86_64-unknown-linux-gnu");
    expect(toolchains).toEqual([
      {
        name: "rust",
        version: "1.95.0",
        path: join(dir, "bin"),
        binds: [dir],
        how: expect.stringContaining(`${host.home}/.cargo/bin/cargo is a shim of rustup; followed to rustup's default stable-x86_64-unknown-linux-gnu`),
      },
    ]);
    const r = await inSandbox(toolchains, "cargo test --quiet; command -v cargo; command -v rustc");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`cargo from stable-x86_64-unknown-linux-gnu (rustc 1.95.0) args: test --quiet\n${dir}/bin/cargo\n${dir}/bin/rustc\n`);
    await expectHomeHidden(toolchains, [".rustup"]);
    // The proxies, the other toolchain and rustup's settings are not there either.
    const other = await inSandbox(
      toolchains,
      `ls ${host.home}/.cargo ${host.home}/.rustup/toolchains/nightly-x86_64-unknown-linux-gnu ${host.home}/.rustup/settings.toml`,
    );
    expect(other.exitCode).not.toBe(0);
    expect(other.stderr.match(/No such file or directory/g)).toHaveLength(3);
  });

  test("pyenv: the shim is followed to the global version's prefix; its interpreter runs, ahead of /usr/bin", async () => {
    host.pyenv(["3.11.7", "3.12.1"], "3.12.1");
    const toolchains = await resolve("python -m pytest");
    const prefix = join(host.home, ".pyenv", "versions", "3.12.1");
    expect(toolchains).toEqual([
      {
        name: "python",
        version: "3.12.1",
        path: join(prefix, "bin"),
        binds: [prefix],
        how: expect.stringContaining("is a shim of pyenv; followed to pyenv's default 3.12.1"),
      },
    ]);
    const r = await inSandbox(toolchains, `python -V; python3 -V; echo "$PATH"; ls ${prefix}/lib`);
    expect(r.stdout).toBe(
      `Python 3.12.1\nPython 3.12.1\n${prefix}/bin:${NODE_DIR_OUTSIDE_USR ? `${NODE_DIR_OUTSIDE_USR}:` : ""}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\npython3.12\n`,
    );
    await expectHomeHidden(toolchains, [".pyenv"]);
    const shims = await inSandbox(toolchains, `ls ${host.home}/.pyenv/shims ${host.home}/.pyenv/versions/3.11.7`);
    expect(shims.stderr.match(/No such file or directory/g)).toHaveLength(2);
  });

  test("nvm: the version on PATH is bound by its prefix; the token in its global npmrc reads as empty", async () => {
    host.nvm(["18.19.0", "20.11.0"], "18", "20.11.0");
    const toolchains = await resolve("npm test");
    const prefix = join(host.home, ".nvm", "versions", "node", "v20.11.0");
    expect(toolchains[0]).toEqual({
      name: "node",
      version: "20.11.0",
      path: join(prefix, "bin"),
      binds: [prefix],
      how: expect.stringContaining(`the host's PATH runs ${prefix}/bin/node`),
    });
    const r = await inSandbox(toolchains, `node; npm test; wc -c < ${prefix}/etc/npmrc`);
    expect(r.stdout).toBe("node v20.11.0\nnpm 10.0.0 of node v20.11.0\n0\n");
    await expectHomeHidden(toolchains, [".nvm"]);
  });

  test("a /usr/local/go-like tree: bound by itself, GOTOOLCHAIN=local; the .env beside it and HOME are not there", async () => {
    const goRoot = host.goTree(join(host.root, "usr-local", "go"), "1.22.3");
    file(join(ws.dir, "go.mod"), "module example.com/m\n\ngo 1.22\n");
    const toolchains = await resolve("go test ./...", host.facts([goRoot]));
    expect(toolchains).toEqual([
      { name: "go", version: "1.22.3", path: join(goRoot, "bin"), binds: [goRoot], how: expect.stringContaining("pinned by go.mod (1.22 or later)") },
    ]);
    const r = await inSandbox(toolchains, `go version; cat ${host.root}/usr-local/.env; ls -A ${host.root}/usr-local; echo "$GOMODCACHE $GOFLAGS"`);
    expect(r.stdout).toBe("go version go1.22.3 linux/amd64 GOTOOLCHAIN=local\ngo\n/cache/go/pkg/mod -modcacherw -count=1\n");
    expect(r.stderr).toContain(`${host.root}/usr-local/.env: No such file or directory`);
    await expectHomeHidden(toolchains, []);
  });

  test("what setup writes to the session's cache and HOME (inside it, never the host's) is there for later runs; what a command writes there, and /tmp, is not", async () => {
    host.rustup([{ name: "stable-x86_64-unknown-linux-gnu", rustc: "1.95.0" }], "stable-x86_64-unknown-linux-gnu");
    const toolchains = await resolve("cargo test");
    const setup = 'mkdir -p "$CARGO_HOME/registry" && echo fetched > "$CARGO_HOME/registry/crate" && echo home > "$HOME/mark"';
    expect((await inSandbox(toolchains, setup, true)).exitCode).toBe(0);
    const command = await inSandbox(toolchains, 'echo "$HOME"; echo again > "$CARGO_HOME/registry/crate"; echo command > "$HOME/mark"; echo tmp > /tmp/mark');
    expect(command.stdout).toBe("/tmp/home\n");
    expect(command.stderr).toContain("Read-only file system");
    const r = await inSandbox(toolchains, 'cat "$CARGO_HOME/registry/crate"; cat "$HOME/mark"; cat /tmp/mark');
    expect(r.stdout).toBe("fetched\nhome\n");
    expect(r.stderr).toContain("/tmp/mark: No such file or directory");
  });

  test("a toolchain the resolver would bind from HOME itself is refused, never bound", async () => {
    const goRoot = host.goTree(join(host.home, "go-unpacked-into-home"), "1.22.3");
    mkdirSync(join(host.home, "bin"), { recursive: true });
    // No go on PATH (this machine's own, e.g. Debian's /usr/bin/go, would be chosen first): only the trees here.
    const base = host.facts();
    const facts = { ...base, env: { ...base.env, PATH: join(host.home, "bin") } };
    const r = await resolveToolchains({
      root: ws.dir,
      commands: [{ text: "go test ./...", source: "test command" }],
      host: { ...facts, env: { ...facts.env, GOROOT: host.home }, goRoots: [goRoot] },
    });
    // GOROOT=HOME is not a Go tree (no bin/go there); the one inside HOME is bound by itself only.
    expect(r.toolchains.map((t) => t.binds)).toEqual([[goRoot]]);
    const inHome = host.goTree(join(host.root, "home-is-goroot"), "1.21.0");
    const refused = await resolveToolchains({
      root: ws.dir,
      commands: [{ text: "go test ./...", source: "test command" }],
      host: { ...facts, goRoots: [inHome], protectedDirs: [join(inHome, "src")] },
    });
    expect(refused.toolchains).toEqual([]);
    expect(refused.unmet).toEqual([
      expect.objectContaining({
        name: "go",
        required: true,
        install: expect.stringContaining(`${inHome} is not bound into the sandbox: it contains ${inHome}/src`),
      }),
    ]);
  });
});
