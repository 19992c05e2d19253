import path from "node:path";
import { parse as parseToml } from "smol-toml";
import type { HostFacts, Installed, ManagerView } from "../types.js";
import { homeOf, isExecutable, listDir, readHead, real } from "./fs.js";

/**
 * rustup: `~/.cargo/bin/cargo` is a proxy (a link to rustup) that picks a toolchain at run time; the
 * real binaries are in `$RUSTUP_HOME/toolchains/<channel>-<triple>/bin`. The sandbox gets that
 * directory and never the proxy, so what runs is the toolchain recorded in the ledger.
 */
export async function rustupView(h: HostFacts): Promise<ManagerView | null> {
  const home = homeOf(h.env);
  const rustupHome = h.env.RUSTUP_HOME ?? (home && path.join(home, ".rustup"));
  if (!rustupHome) return null;
  const installed: Installed[] = [];
  for (const name of await listDir(path.join(rustupHome, "toolchains"))) {
    const dir = await real(path.join(rustupHome, "toolchains", name));
    if (!dir || !((await isExecutable(path.join(dir, "bin", "cargo"))) || (await isExecutable(path.join(dir, "bin", "rustc"))))) continue;
    const channel = channelOf(name);
    installed.push({
      name: "rust",
      version: (await rustcVersion(dir)) ?? channel,
      aliases: [name, channel],
      dir,
      bin: path.join(dir, "bin"),
      manager: "rustup",
    });
  }
  if (installed.length === 0) return null;
  const cargoHome = h.env.CARGO_HOME ?? (home && path.join(home, ".cargo"));
  const defaultSpec = h.env.RUSTUP_TOOLCHAIN ? { spec: h.env.RUSTUP_TOOLCHAIN, source: "RUSTUP_TOOLCHAIN" } : await settingsDefault(rustupHome);
  return { manager: "rustup", installed, defaultSpec, shimDirs: cargoHome ? [path.join(cargoHome, "bin")] : [] };
}

const TRIPLE = /-(x86_64|aarch64|i686|i586|armv7|arm|riscv64gc|powerpc64le|powerpc64|s390x|loongarch64)-[a-z0-9_]+-[a-z0-9_]+(-[a-z0-9_]+)?$/;

/** `stable-x86_64-unknown-linux-gnu` → `stable`; `nightly-2026-05-19-aarch64-apple-darwin` → `nightly-2026-05-19`. */
function channelOf(toolchain: string): string {
  return toolchain.replace(TRIPLE, "");
}

// The channel manifest rustup keeps with each toolchain names the compiler's version.
async function rustcVersion(dir: string): Promise<string | null> {
  const text = await readHead(path.join(dir, "lib", "rustlib", "multirust-channel-manifest.toml"), 4 * 1024 * 1024);
  const m = text === null ? null : /^\[pkg\.rustc\]\s*\n\s*version\s*=\s*"([^"\s]+)/m.exec(text);
  return m ? m[1] : null;
}

async function settingsDefault(rustupHome: string): Promise<ManagerView["defaultSpec"]> {
  const file = path.join(rustupHome, "settings.toml");
  const text = await readHead(file);
  if (text === null) return null;
  try {
    const spec = parseToml(text).default_toolchain;
    return typeof spec === "string" ? { spec, source: file } : null;
  } catch {
    return null;
  }
}
