import { access, constants, lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { detectProcessLimit, type ProcessLimitMode } from "./pids-cgroup.js";

/** Facts about this host that every bubblewrap run needs, found once when the backend is chosen. */
export interface BwrapHostSetup {
  /** Absolute, so bwrap can be started with a bare PATH. */
  bwrap: string;
  /** Inside-sandbox path of prlimit; /usr is bound, so the host path works there too. */
  prlimit: string;
  /** Installation prefix of the node running Patchgate when it lives outside /usr (nvm, /opt/node). */
  nodePrefix: string | null;
  processLimit: ProcessLimitMode;
}

const PRLIMIT_CANDIDATES = ["/usr/bin/prlimit", "/usr/sbin/prlimit"];

export async function detectBwrapHost(bwrapName = "bwrap"): Promise<BwrapHostSetup | { reason: string }> {
  const bwrap = await which(bwrapName);
  if (!bwrap) return { reason: `${bwrapName} not found (install bubblewrap)` };
  const prlimit = await firstExecutable(PRLIMIT_CANDIDATES);
  if (!prlimit) return { reason: "prlimit (util-linux) not found under /usr: the sandbox could not limit processes and memory" };
  const processLimit = await detectProcessLimit();
  if (processLimit.kind === "unavailable") return { reason: processLimit.reason };
  return { bwrap, prlimit, nodePrefix: await nodePrefix(process.execPath), processLimit };
}

/**
 * The test command usually runs `node`, and the node that runs Patchgate is one we know works. When
 * it is installed under /usr it is already visible; otherwise its prefix (…/bin/node → …) is bound
 * read-only and its bin directory put first on PATH.
 */
export async function nodePrefix(execPath: string): Promise<string | null> {
  const real = await realpath(execPath);
  if (real.startsWith("/usr/")) return null;
  const prefix = path.dirname(path.dirname(real));
  return prefix === "/" ? null : prefix;
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

export async function which(name: string, searchPath = process.env.PATH ?? ""): Promise<string | null> {
  if (name.includes("/")) return firstExecutable([path.resolve(name)]);
  return firstExecutable(searchPath.split(":").filter((d) => path.isAbsolute(d)).map((d) => path.join(d, name)));
}

async function firstExecutable(paths: string[]): Promise<string | null> {
  for (const p of paths) {
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // Try the next.
    }
  }
  return null;
}
