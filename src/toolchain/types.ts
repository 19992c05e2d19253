import type { ToolchainRecord, UnmetToolchain } from "../session/types.js";

export type { ToolchainRecord, UnmetToolchain };

/**
 * A version the repository asks for, and the file that asks. `prefix`: `3.11` takes 3.11.7;
 * `at_least`: go.mod's `go 1.22` takes 1.23; `major`: packageManager's `pnpm@8.15.0` takes any 8.x
 * (corepack cannot download inside the sandbox, so an exact match is rarely installed).
 */
export interface Pin {
  name: string;
  spec: string;
  source: string;
  rule: "prefix" | "at_least" | "major";
  /** A preference, not a requirement (go.mod's `toolchain` line when `go` is already satisfied). */
  optional?: boolean;
  /** The pin cannot be honoured as written (a path, a broken file): it is unmet whatever is installed. */
  error?: string;
}

/** One toolchain installed on the host, as a version manager laid it out. */
export interface Installed {
  name: string;
  version: string;
  /** Names a pin may use for it besides its version: `stable`, `stable-x86_64-unknown-linux-gnu`. */
  aliases: string[];
  /** realpath of the directory to bind (the toolchain's own, never the manager's root). */
  dir: string;
  /** realpath of its bin directory, put on PATH. */
  bin: string;
  /** Further directories it needs (a virtualenv's base interpreter). */
  extra?: string[];
  /** `rustup`, `pyenv`, `nvm`, `fnm`, `asdf`, `mise`, `go`, `system`… */
  manager: string;
}

/** What one version manager has: its toolchains, its default, and the shim directories that stand for it. */
export interface ManagerView {
  manager: string;
  installed: Installed[];
  /** The version it uses when nothing pins one (rustup's default toolchain, pyenv's global version). */
  defaultSpec: { spec: string; source: string } | null;
  /** Directories of shims or proxies (`~/.cargo/bin`, `~/.pyenv/shims`): a program there means "this manager's choice". */
  shimDirs: string[];
}

/** Facts about the host, gathered once; tests build them around a temporary HOME. */
export interface HostFacts {
  /** HOME, PATH and the managers' variables (RUSTUP_HOME, PYENV_ROOT, NVM_DIR, ASDF_DATA_DIR…). */
  env: Readonly<Record<string, string | undefined>>;
  /** The node running Patchgate (bound into every sandbox by the node binding). */
  node: { binary: string; version: string };
  /** Where a system-wide Go may live besides GOROOT and PATH. */
  goRoots: string[];
  /** Directories never bound, nor any directory containing one: HOME, Patchgate's own directory. */
  protectedDirs: string[];
}

export interface ToolchainResolution {
  toolchains: ToolchainRecord[];
  unmet: UnmetToolchain[];
}
