import { createHash } from "node:crypto";
import { isSetupInput, namedBySetup } from "../policy/setup-inputs.js";
import type { ToolchainRecord } from "../session/types.js";
import { gitOk } from "../workspace/git.js";
import { installScripts } from "../workspace/setup-inputs.js";

/**
 * What installed dependencies depend on, as one key: the repository, the setup command, the setup
 * inputs of the tree (policy/setup-inputs.ts: manifests, lockfiles, package-manager configuration,
 * the files the setup command names) by their git blob ids, the toolchains the sandbox runs them
 * with, and the platform. Two sessions with the same key would install the same thing.
 */
export interface CacheKeyInput {
  /** Whose entries these are (./cache-owner.ts): never shared between tenants or repositories. */
  repo: string;
  command: string;
  toolchains: readonly Pick<ToolchainRecord, "name" | "version" | "path">[];
}

// Bumped when what an entry holds changes shape.
const FORMAT = "patchgate-depcache-1";

/** `mode blob path` of every setup input in `commit`, sorted (git lists in path order). */
export async function setupInputBlobs(root: string, commit: string, command: string, signal?: AbortSignal): Promise<string[]> {
  const scripts = await installScripts(root, commit, signal);
  const named = namedBySetup(command, scripts);
  const out = await gitOk(["ls-tree", "-r", "-z", "--full-tree", commit], { cwd: root, signal });
  return out
    .split("\0")
    .filter((line) => line !== "" && isSetupInput(line.slice(line.indexOf("\t") + 1), named))
    .map((line) => line.replace(/\t/, " "));
}

export function cacheKey(input: CacheKeyInput, inputBlobs: readonly string[]): string {
  const h = createHash("sha256");
  const toolchains = input.toolchains.map((t) => `${t.name} ${t.version} ${t.path}`).sort();
  for (const part of [FORMAT, input.repo, input.command, `${process.platform}-${process.arch} node ${process.version}`, ...toolchains, "--", ...inputBlobs]) {
    h.update(part);
    h.update("\0");
  }
  return h.digest("hex").slice(0, 40);
}
