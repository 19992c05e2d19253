import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { HostFacts } from "../../src/toolchain/types.js";

/**
 * The directory of the node running the tests. The PATH that started Patchgate has it (where it is not
 * a system directory: Node 24 from the npm registry, actions/setup-node), so the fake host's PATH does.
 */
const TEST_NODE_DIR = dirname(realpathSync(process.execPath));
const SYSTEM_DIRS = ["/usr/local/bin", "/usr/bin", "/bin"];

/** The node the fake host's PATH runs when no version manager comes first: the tests' own. */
export const HOST_PATH_NODE = join(TEST_NODE_DIR, "node");

/**
 * Version-manager layouts built on disk the way each manager lays them out, under a temporary HOME
 * that also holds the files no sandbox may read (`.env`, `.ssh/id_rsa`). The "binaries" are shell
 * scripts that say which toolchain they are, so a run in the sandbox shows which one it got.
 */
export const SECRET = "patchgate-test-secret-4f1c";

export class FakeHost {
  readonly root = mkdtempSync(join(tmpdir(), "pg-host-"));
  readonly home = join(this.root, "home", "dev");
  private readonly pathDirs: string[] = [];
  readonly env: Record<string, string> = {};

  constructor() {
    file(join(this.home, ".env"), `OPENAI_API_KEY=${SECRET}\n`);
    file(join(this.home, ".ssh", "id_rsa"), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`);
  }

  /** ~/.cargo/bin proxies linked to rustup; real binaries in ~/.rustup/toolchains/<name>/bin. */
  rustup(toolchains: { name: string; rustc: string }[], defaultToolchain: string): this {
    const bin = join(this.home, ".cargo", "bin");
    exe(join(bin, "rustup"), "echo 'rustup proxy: must never run in the sandbox'; exit 99");
    // Installing another toolchain later (`rustup toolchain install`) leaves the proxies as they are.
    for (const p of ["cargo", "rustc"]) if (!existsSync(join(bin, p))) symlinkSync("rustup", join(bin, p));
    file(join(this.home, ".rustup", "settings.toml"), `version = "12"\ndefault_toolchain = "${defaultToolchain}"\n`);
    for (const t of toolchains) {
      const dir = join(this.home, ".rustup", "toolchains", t.name);
      exe(join(dir, "bin", "cargo"), `echo "cargo from ${t.name} (rustc ${t.rustc}) args: $*"`);
      exe(join(dir, "bin", "rustc"), `echo "rustc ${t.rustc}"`);
      file(
        join(dir, "lib", "rustlib", "multirust-channel-manifest.toml"),
        `manifest-version = "2"\n\n[pkg.cargo]\nversion = "0.1.0"\n\n[pkg.rustc]\nversion = "${t.rustc} (0000000 2026-01-01)"\n`,
      );
    }
    if (!this.pathDirs.includes(bin)) this.pathDirs.push(bin);
    return this;
  }

  /** ~/.pyenv/shims/python asks pyenv; each version is its own prefix in ~/.pyenv/versions/<v>. */
  pyenv(versions: string[], global: string): this {
    const root = join(this.home, ".pyenv");
    exe(join(root, "shims", "python"), `exec "${root}/libexec/pyenv" exec python "$@"`);
    exe(join(root, "shims", "python3"), `exec "${root}/libexec/pyenv" exec python3 "$@"`);
    exe(join(root, "libexec", "pyenv"), "echo 'pyenv shim: must never run in the sandbox'; exit 99");
    file(join(root, "version"), `${global}\n`);
    for (const v of versions) {
      for (const p of ["python", "python3"]) exe(join(root, "versions", v, "bin", p), `echo "Python ${v}"`);
      file(join(root, "versions", v, "lib", `python${v.split(".").slice(0, 2).join(".")}`, "os.py"), "# stdlib\n");
    }
    this.pathDirs.push(join(root, "shims"));
    return this;
  }

  /** ~/.nvm/versions/node/v<v> prefixes, `nvm use` puts one bin directory on PATH; a token in its global npmrc. */
  nvm(versions: string[], defaultAlias: string, onPath?: string): this {
    const root = join(this.home, ".nvm");
    for (const v of versions) {
      const prefix = join(root, "versions", "node", `v${v}`);
      exe(join(prefix, "bin", "node"), `echo "node v${v}"`);
      file(join(prefix, "lib", "node_modules", "npm", "package.json"), `{"name":"npm","version":"10.0.0"}\n`);
      exe(join(prefix, "lib", "node_modules", "npm", "bin", "npm-cli.js"), `echo "npm 10.0.0 of node v${v}"`);
      symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", join(prefix, "bin", "npm"));
      file(join(prefix, "etc", "npmrc"), `//registry.npmjs.org/:_authToken=${SECRET}\n`);
    }
    file(join(root, "alias", "default"), `${defaultAlias}\n`);
    file(join(root, "alias", "lts", "iron"), `v${versions.find((v) => v.startsWith("20")) ?? versions[0]}\n`);
    file(join(root, "alias", "lts", "*"), "lts/iron\n");
    if (onPath) this.pathDirs.push(join(root, "versions", "node", `v${onPath}`, "bin"));
    return this;
  }

  /** A Go tree as the official archive unpacks it (/usr/local/go), with a credential file beside it. */
  goTree(dir: string, version: string): string {
    exe(join(dir, "bin", "go"), `echo "go version go${version} linux/amd64 GOTOOLCHAIN=$GOTOOLCHAIN"`);
    file(join(dir, "VERSION"), `go${version}\ntime 2026-01-01T00:00:00Z\n`);
    file(join(dir, "src", "fmt", "print.go"), "package fmt\n");
    file(join(dirname(dir), ".env"), `SECRET=${SECRET}\n`);
    return dir;
  }

  /** ~/.asdf/installs/<tool>/<version> with shims; a global ~/.tool-versions. */
  asdf(tool: string, versions: string[], program: string, global?: string): this {
    const root = join(this.home, ".asdf");
    exe(join(root, "shims", program), `exec asdf exec ${program} "$@"`);
    for (const v of versions) exe(join(root, "installs", tool, v, "bin", program), `echo "${program} ${v} (asdf)"`);
    if (global) file(join(this.home, ".tool-versions"), `${tool} ${global}\n`);
    this.pathDirs.push(join(root, "shims"));
    return this;
  }

  /** mise: ~/.local/share/mise/installs/<tool>/<v> (a `20` link to `20.11.0`), shims, a global config.toml. */
  mise(tool: string, versions: string[], program: string, global?: string): this {
    const root = join(this.home, ".local", "share", "mise");
    exe(join(root, "shims", program), `exec mise x -- ${program} "$@"`);
    for (const v of versions) {
      exe(join(root, "installs", tool, v, "bin", program), `echo "${program} ${v} (mise)"`);
      const major = v.split(".")[0];
      if (!existsSync(join(root, "installs", tool, major))) symlinkSync(v, join(root, "installs", tool, major));
    }
    if (global) file(join(this.home, ".config", "mise", "config.toml"), `[tools]\n${tool} = "${global}"\n`);
    this.pathDirs.push(join(root, "shims"));
    return this;
  }

  /** fnm: ~/.local/share/fnm/node-versions/v<v>/installation; the shell's PATH has a per-shell link to one of them. */
  fnm(versions: string[], defaultVersion: string, inShell?: string): this {
    const root = join(this.home, ".local", "share", "fnm");
    const installation = (v: string) => join(root, "node-versions", `v${v}`, "installation");
    for (const v of versions) exe(join(installation(v), "bin", "node"), `echo "node v${v} (fnm)"`);
    mkdirSync(join(root, "aliases"), { recursive: true });
    symlinkSync(installation(defaultVersion), join(root, "aliases", "default"));
    if (inShell) {
      const multishell = join(this.home, ".local", "state", "fnm_multishells", "4242_1700000000000");
      mkdirSync(dirname(multishell), { recursive: true });
      symlinkSync(installation(inShell), multishell);
      this.pathDirs.push(join(multishell, "bin"));
    }
    return this;
  }

  facts(goRoots: string[] = []): HostFacts {
    return {
      env: {
        HOME: this.home,
        PATH: [...this.pathDirs, ...(SYSTEM_DIRS.includes(TEST_NODE_DIR) ? [] : [TEST_NODE_DIR]), ...SYSTEM_DIRS].join(":"),
        ...this.env,
      },
      node: { binary: realpathSync(process.execPath), version: process.version },
      goRoots,
      protectedDirs: [this.home],
    };
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function file(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export function exe(path: string, body: string): void {
  file(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}
