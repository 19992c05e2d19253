import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { resolveToolchains } from "../../src/toolchain/resolve.js";
import type { HostFacts } from "../../src/toolchain/types.js";
import { tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { exe, FakeHost, file, HOST_PATH_NODE } from "./layouts.js";

const RUST = [
  { name: "stable-x86_64-unknown-linux-gnu", rustc: "1.95.0" },
  { name: "nightly-x86_64-unknown-linux-gnu", rustc: "1.97.0-nightly" },
  { name: "1.90.0-x86_64-unknown-linux-gnu", rustc: "1.90.0" },
];

describe("which toolchain a repository gets", () => {
  let host: FakeHost;
  let ws: { dir: string; cleanup: () => void };
  beforeEach(() => {
    host = new FakeHost();
    ws = tempWorkspace("pg-resolve-");
  });
  afterEach(() => {
    host.cleanup();
    ws.cleanup();
  });
  const resolve = (test: string, facts: HostFacts = host.facts(), setup?: string) =>
    resolveToolchains({
      root: ws.dir,
      commands: [{ text: test, source: "test command" }, ...(setup ? [{ text: setup, source: "setup command" }] : [])],
      host: facts,
    });
  const pinFile = (name: string, content: string) => file(join(ws.dir, name), content);

  test("rust-toolchain.toml decides over rustup's default: a channel, a version the stable toolchain is, an exact toolchain", async () => {
    host.rustup(RUST, "stable-x86_64-unknown-linux-gnu");
    const chosen = async (channel: string) => {
      pinFile("rust-toolchain.toml", `[toolchain]\nchannel = "${channel}"\n`);
      const r = await resolve("cargo test");
      return [r.toolchains[0]?.version, r.toolchains[0]?.how];
    };
    expect(await chosen("nightly")).toEqual([
      "1.97.0-nightly",
      "rustup nightly-x86_64-unknown-linux-gnu (1.97.0-nightly), pinned by rust-toolchain.toml (nightly)",
    ]);
    expect(await chosen("1.95")).toEqual([
      "1.95.0",
      "rustup stable-x86_64-unknown-linux-gnu (1.95.0), pinned by rust-toolchain.toml (1.95); the host's PATH runs it too",
    ]);
    expect(await chosen("1.90.0")).toEqual(["1.90.0", "rustup 1.90.0-x86_64-unknown-linux-gnu (1.90.0), pinned by rust-toolchain.toml (1.90.0)"]);
  });

  test("a FIFO where a manager keeps its default (rustup's settings.toml) is not a setting and never stalls resolution", async () => {
    host.rustup(RUST, "stable-x86_64-unknown-linux-gnu");
    const settings = join(host.home, ".rustup", "settings.toml");
    rmSync(settings);
    execFileSync("mkfifo", [settings]);
    const r = await resolve("cargo test");
    // Without a readable default the proxy on PATH stands for nothing: the newest toolchain is taken.
    expect(r.toolchains.map((t) => t.version)).toEqual(["1.97.0-nightly"]);
  });

  test("a rust pin the host does not have is unmet and required, naming the version and what to run", async () => {
    host.rustup(RUST, "stable-x86_64-unknown-linux-gnu");
    pinFile("rust-toolchain.toml", '[toolchain]\nchannel = "1.80.0"\n');
    const r = await resolve("cargo test");
    expect(r.toolchains).toEqual([]);
    expect(r.unmet).toEqual([
      {
        name: "rust",
        wanted: "1.80.0",
        source: "rust-toolchain.toml",
        required: true,
        install: "rustup toolchain install 1.80.0; installed: 1.90.0 (rustup), 1.97.0-nightly (rustup), 1.95.0 (rustup)",
      },
    ]);
  });

  test("python: a .python-version prefix takes the newest matching pyenv version; an exact one that is missing is unmet", async () => {
    host.pyenv(["3.11.7", "3.12.1", "3.12.4"], "3.11.7");
    pinFile(".python-version", "3.12\n");
    expect((await resolve("python -m pytest")).toolchains.map((t) => t.version)).toEqual(["3.12.4"]);
    pinFile(".python-version", "3.9.18\n");
    const r = await resolve("python -m pytest");
    expect(r.unmet).toEqual([
      expect.objectContaining({
        name: "python",
        wanted: "3.9.18",
        source: ".python-version",
        install: expect.stringMatching(/^pyenv install 3\.9\.18; installed: 3\.11\.7 \(pyenv\), 3\.12\.1 \(pyenv\), 3\.12\.4 \(pyenv\)/),
        required: true,
      }),
    ]);
  });

  test("pyenv's global `system` means the system's python, not the newest pyenv version", async () => {
    host.pyenv(["3.12.1"], "system");
    const r = await resolve("python3 -m pytest");
    if (!existsSync("/usr/bin/python3")) return expect(r.unmet).toEqual([expect.objectContaining({ name: "python3" })]);
    expect(r.toolchains[0]).toMatchObject({ name: "python", path: "/usr/bin", binds: [], how: expect.stringContaining("followed to pyenv's default system") });
  });

  test("node: .nvmrc's lts/* goes through nvm's alias files; without a pin, what the host's PATH runs", async () => {
    host.nvm(["18.19.0", "20.11.0", "21.6.0"], "18");
    pinFile(".nvmrc", "lts/*\n");
    const pinned = await resolve("node --test");
    expect(pinned.toolchains[0]).toMatchObject({ name: "node", version: "20.11.0", how: "nvm 20.11.0, pinned by .nvmrc (lts/* = v20.11.0)" });
    pinFile(".nvmrc", "\n");
    // nvm has no shims: its default applies in shells that load nvm, not to the PATH Patchgate runs with.
    const unpinned = await resolve("node --test");
    expect(unpinned.toolchains[0]).toMatchObject({
      version: process.version.slice(1),
      how: `the host's PATH runs ${HOST_PATH_NODE} (Patchgate's node ${process.version.slice(1)})`,
    });
    const withoutPath = await resolve("node --test", { ...host.facts(), env: { HOME: host.home, PATH: "/nonexistent" } });
    expect(withoutPath.toolchains[0]).toMatchObject({ version: "18.19.0", how: expect.stringContaining("nvm default 18") });
  });

  test("go.mod: `go 1.22` takes any tree at least that new, preferring its `toolchain` line; too old is unmet", async () => {
    const old = host.goTree(join(host.root, "opt", "go-old"), "1.21.5");
    const newer = host.goTree(join(host.root, "opt", "go-new"), "1.23.1");
    const exact = host.goTree(join(host.root, "opt", "go-exact"), "1.22.3");
    pinFile("go.mod", "module m\n\ngo 1.22\n\ntoolchain go1.22.3\n");
    expect((await resolve("go test ./...", host.facts([old, newer, exact]))).toolchains[0]).toMatchObject({
      version: "1.22.3",
      how: expect.stringContaining("preferred by go.mod toolchain"),
    });
    pinFile("go.mod", "module m\n\ngo 1.22\n");
    expect((await resolve("go test ./...", host.facts([old, newer]))).toolchains[0]).toMatchObject({ version: "1.23.1" });
    const r = await resolve("go test ./...", host.facts([old]));
    expect(r.unmet).toEqual([expect.objectContaining({ name: "go", wanted: ">= 1.22", required: true })]);
  });

  test("asdf: .tool-versions picks an install; its shim stands for the global version when nothing pins", async () => {
    host.asdf("golang", ["1.21.0", "1.22.0"], "go", "1.21.0");
    // asdf's Go plugin keeps the tree under go/: the layout is just bin/ here, like most plugins.
    pinFile(".tool-versions", "golang 1.22.0\n");
    expect((await resolve("go test ./...")).toolchains[0]).toMatchObject({
      version: "1.22.0",
      binds: [join(host.home, ".asdf", "installs", "golang", "1.22.0")],
    });
    pinFile(".tool-versions", "");
    expect((await resolve("go vet ./... && go test ./...")).toolchains[0]).toMatchObject({
      version: "1.21.0",
      how: expect.stringContaining("is a shim of asdf; followed to asdf's default 1.21.0"),
    });
  });

  test("mise: mise.toml picks an install by its version or the link mise keeps for a major; the shim stands for the global config", async () => {
    host.mise("node", ["18.19.0", "20.11.0"], "node", "18");
    const installs = join(host.home, ".local", "share", "mise", "installs", "node");
    pinFile("mise.toml", '[tools]\nnode = "20"\n');
    expect((await resolve("node --test")).toolchains[0]).toMatchObject({
      name: "node",
      version: "20.11.0",
      path: join(installs, "20.11.0", "bin"),
      binds: [join(installs, "20.11.0")],
      how: expect.stringContaining("pinned by mise.toml (20)"),
    });
    pinFile("mise.toml", "");
    expect((await resolve("node --test")).toolchains[0]).toMatchObject({
      version: "18.19.0",
      how: expect.stringContaining("is a shim of mise; followed to mise's default 18"),
    });
  });

  test("fnm: the shell's per-shell link is followed to its installation; without one, fnm's default alias", async () => {
    host.fnm(["18.19.0", "20.11.0"], "18.19.0", "20.11.0");
    const installation = (v: string) => join(host.home, ".local", "share", "fnm", "node-versions", `v${v}`, "installation");
    expect((await resolve("node --test")).toolchains[0]).toMatchObject({
      version: "20.11.0",
      path: join(installation("20.11.0"), "bin"),
      binds: [installation("20.11.0")],
      how: expect.stringContaining("(fnm 20.11.0)"),
    });
    const noShell = { ...host.facts(), env: { HOME: host.home, PATH: "/usr/bin:/bin" } };
    pinFile(".node-version", "20.11\n");
    expect((await resolve("node --test", noShell)).toolchains[0]).toMatchObject({ version: "20.11.0", how: "fnm 20.11.0, pinned by .node-version (20.11)" });
    rmSync(join(ws.dir, ".node-version"));
    // Unpinned and no node on PATH at all: fnm's default alias decides.
    const r = await resolve("node --test", { ...noShell, env: { HOME: host.home, PATH: "/nonexistent" } });
    expect(r.toolchains[0]).toMatchObject({
      version: "18.19.0",
      how: `fnm default 18.19.0 (${join(host.home, ".local", "share", "fnm", "aliases", "default")})`,
    });
  });

  test("a driver the lines run that nothing provides is unmet: the test could only exit 127", async () => {
    const r = await resolve("timeout 600 cargo test", { ...host.facts(), env: { HOME: host.home, PATH: "/nonexistent" } });
    if (r.toolchains.some((t) => t.name === "rust")) return; // a Debian cargo under /usr/bin provides it
    expect(r.unmet).toEqual([
      expect.objectContaining({
        name: "cargo",
        wanted: "any",
        source: "the test command runs cargo",
        required: true,
        install: expect.stringContaining("no rust was found on the host; install Rust with rustup"),
      }),
    ]);
  });

  test("a tool of .tool-versions Patchgate does not know is bound when installed and only noted when not", async () => {
    const zigDir = join(host.home, ".asdf", "installs", "zig", "0.13.0");
    exe(join(zigDir, "bin", "zig"), "echo zig");
    pinFile(".tool-versions", "zig 0.13.0\nterraform 1.9.0\n");
    const r = await resolve("make test");
    expect(r.toolchains).toEqual([expect.objectContaining({ name: "zig", version: "0.13.0", path: join(zigDir, "bin"), binds: [zigDir] })]);
    expect(r.unmet).toEqual([
      expect.objectContaining({ name: "terraform", wanted: "1.9.0", required: false, install: "asdf install terraform 1.9.0; installed: none" }),
    ]);
  });

  test("a tool name in .tool-versions or mise.toml that climbs out of the manager's installs binds nothing", async () => {
    host.asdf("golang", ["1.22.0"], "go").mise("node", ["20.11.0"], "node");
    // A directory of HOME laid out like an install: what `../../project` would reach from asdf's or mise's installs.
    exe(join(host.home, "project", "v1", "bin", "run"), "echo project");
    exe(join(host.home, ".local", "project", "v1", "bin", "run"), "echo project");
    for (const [name, content] of [
      [".tool-versions", "../../project v1\n"],
      ["mise.toml", '[tools]\n"../../../project" = "v1"\n'],
    ]) {
      pinFile(name, content);
      const r = await resolve("make test");
      expect(r.toolchains).toEqual([]);
      expect(r.unmet).toEqual([expect.objectContaining({ required: false, install: expect.stringContaining("which is not a tool name") })]);
      rmSync(join(ws.dir, name));
    }
  });

  test("packageManager: pnpm of the same major beside the chosen node; another major is unmet when a line runs pnpm", async () => {
    host.nvm(["20.11.0"], "20", "20.11.0");
    const prefix = join(host.home, ".nvm", "versions", "node", "v20.11.0");
    file(join(prefix, "lib", "node_modules", "pnpm", "package.json"), '{"name":"pnpm","version":"8.15.4"}');
    exe(join(prefix, "lib", "node_modules", "pnpm", "bin", "pnpm.cjs"), "echo pnpm");
    const { symlinkSync } = await import("node:fs");
    symlinkSync("../lib/node_modules/pnpm/bin/pnpm.cjs", join(prefix, "bin", "pnpm"));
    pinFile("package.json", '{"packageManager":"pnpm@8.15.0"}');
    const ok = await resolve("pnpm test", host.facts(), "pnpm install --frozen-lockfile");
    expect(ok.toolchains.map((t) => [t.name, t.version, t.path])).toEqual([
      ["node", "20.11.0", join(prefix, "bin")],
      ["pnpm", "8.15.4", join(prefix, "bin")],
    ]);
    expect(ok.unmet).toEqual([]);
    pinFile("package.json", '{"packageManager":"pnpm@9.1.0"}');
    const bad = await resolve("pnpm test");
    expect(bad.unmet).toEqual([
      expect.objectContaining({ name: "pnpm", wanted: "9.1.0", required: true, install: expect.stringContaining("npm install -g pnpm@9.1.0") }),
    ]);
  });
});
