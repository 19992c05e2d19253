import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import type { HostFacts } from "./types.js";
import { hostEnvironment } from "../process/index.js";

/**
 * This host as the resolver sees it: Patchgate's own environment (HOME, PATH and the version
 * managers' variables are read, nothing of it enters the sandbox), the node running Patchgate, and
 * the directories never to bind: HOME, the process's directory (its `.env`) and the data directory.
 */
export function hostFacts(opts: { dataDir?: string } = {}): HostFacts {
  const env = hostEnvironment();
  const protectedDirs = [homedir(), env.HOME, process.cwd(), opts.dataDir].filter((d): d is string => typeof d === "string" && d.startsWith("/"));
  return {
    env,
    node: { binary: realpathSync(process.execPath), version: process.version },
    goRoots: ["/usr/local/go"],
    protectedDirs: [...new Set(protectedDirs)],
  };
}
