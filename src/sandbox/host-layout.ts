import { lstat, readFile, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { firstExecutable, which } from "../toolchain/layouts/fs.js";
import { detectProcessLimit, type ProcessLimitMode } from "./pids-cgroup.js";
import type { NodeLayout } from "./toolchain-binding.js";

/** Facts about this host that every bubblewrap run needs, found once when the backend is chosen. */
export interface BwrapHostSetup {
  /** Absolute, so bwrap can be started with a bare PATH. */
  bwrap: string;
  /** Inside-sandbox path of prlimit; /usr is bound, so the host path works there too. */
  prlimit: string;
  /** Closes inherited descriptors before bwrap starts (see close-fds.ts). */
  bash: string;
  /** The node running Patchgate when it lives outside /usr (nvm, /opt/node), to bind into the sandbox. */
  node: NodeLayout | null;
  processLimit: ProcessLimitMode;
  /**
   * Perl under /usr, which runs the long-lived sandbox's supervisor (supervisor-script.ts); without
   * it every command gets a sandbox of its own.
   */
  perl?: string | null;
  /** util-linux's nsenter and unshare under /usr, which mount each writable run's disk layer (run-overlay.ts). */
  nsenter?: string | null;
  unshare?: string | null;
}

const PRLIMIT_CANDIDATES = ["/usr/bin/prlimit", "/usr/sbin/prlimit"];
const BASH_CANDIDATES = ["/usr/bin/bash", "/bin/bash"];

export async function detectBwrapHost(bwrapName = "bwrap"): Promise<BwrapHostSetup | { reason: string }> {
  const bwrap = await which(bwrapName);
  if (!bwrap) return { reason: `${bwrapName} not found (install bubblewrap)` };
  const prlimit = await firstExecutable(PRLIMIT_CANDIDATES);
  if (!prlimit) return { reason: "prlimit (util-linux) not found under /usr: the sandbox could not limit processes and memory" };
  const bash = await firstExecutable(BASH_CANDIDATES);
  if (!bash) return { reason: "bash not found: the sandbox could not close the descriptors Patchgate inherited" };
  const processLimit = await detectProcessLimit();
  if (processLimit.kind === "unavailable") return { reason: processLimit.reason };
  const maps = await readFile("/proc/self/maps", "utf8").catch(() => "");
  const perl = await firstExecutable(["/usr/bin/perl"]);
  const nsenter = await firstExecutable(["/usr/bin/nsenter"]);
  const unshare = await firstExecutable(["/usr/bin/unshare"]);
  return { bwrap, prlimit, bash, node: await detectNodeLayout(process.execPath, maps), processLimit, perl, nsenter, unshare };
}

// Shipped inside node's own prefix (lib/node_modules/<name>), linked from its bin directory.
const BUNDLED = ["npm", "npx", "corepack"];

/**
 * The test command usually runs `node`, and the node that runs Patchgate is one we know works. When
 * it is installed under /usr it is already visible. Otherwise the sandbox gets the executable, the
 * shared libraries it loaded from outside /usr (`maps` is /proc/self/maps of the process running
 * it; "" for none), and npm/npx/corepack when they sit beside it as links into its prefix — never
 * the prefix itself, whose other files (a `.env` beside `$HOME/bin/node`) are none of its business.
 */
export async function detectNodeLayout(execPath: string, maps = ""): Promise<NodeLayout | null> {
  const binary = await realpath(execPath);
  if (binary.startsWith("/usr/")) return null;
  const binDir = path.dirname(binary);
  const modules = path.join(path.dirname(binDir), "lib", "node_modules");
  const links: NodeLayout["links"] = [];
  const packages = new Set<string>();
  for (const name of BUNDLED) {
    const link = path.join(binDir, name);
    const target = await readlink(link).catch(() => null);
    const pkg = target === null ? null : packageOf(modules, path.resolve(binDir, target));
    if (target === null || pkg === null) continue;
    links.push({ path: link, target });
    packages.add(pkg);
  }
  return { binary, links, packages: [...packages], libraries: loadedLibraries(maps, path.dirname(binDir)) };
}

function packageOf(modules: string, resolved: string): string | null {
  const rel = path.relative(modules, resolved);
  const name = rel.split(path.sep)[0];
  return rel.startsWith("..") || path.isAbsolute(rel) || !BUNDLED.includes(name) ? null : path.join(modules, name);
}

/** Shared objects of a maps listing that come from node's own prefix (the system's are under /usr). */
function loadedLibraries(maps: string, prefix: string): string[] {
  const libs = new Set<string>();
  for (const line of maps.split("\n")) {
    const at = line.indexOf("/");
    const file = at < 0 ? "" : line.slice(at);
    if (file.startsWith(`${prefix}/`) && /\.so(\.\d+)*$/.test(file)) libs.add(file);
  }
  return [...libs];
}

/** A `.git` that is a symlink is not re-bound: bwrap would follow it and expose its target. */
export async function hasRealGit(workspace: string): Promise<boolean> {
  try {
    const st = await lstat(path.join(workspace, ".git"));
    return st.isDirectory() || st.isFile();
  } catch {
    return false;
  }
}
