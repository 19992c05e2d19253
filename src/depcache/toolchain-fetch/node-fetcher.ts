import path from "node:path";
import type { Pin } from "../../toolchain/types.js";
import type { Fetched, FetchedFrom, ToolchainFetcher } from "./fetcher.js";
import { nodePackageName, nodeVersionFor } from "./node-packages.js";
import { publishedVersions } from "./registry-download.js";
import { FetchedToolchainStore, type FetchedEntry } from "./toolchain-store.js";

const NPM_REGISTRY = "https://registry.npmjs.org/";

export interface NodeFetcherOptions {
  /** The dependency cache's directory: fetched toolchains live in its `toolchains/`. */
  cacheRoot: string;
  /** Default: the public npm registry. */
  registry?: string;
  platform?: string;
  arch?: string;
}

/**
 * Node from the npm registry. A version already in the cache that the pin takes is used without
 * asking the registry (after its tree is checked); otherwise the registry's newest release the pin
 * takes is downloaded, checked against its published sha512, and unpacked into the cache.
 */
export function nodeFetcher(opts: NodeFetcherOptions): ToolchainFetcher {
  const registry = opts.registry ?? NPM_REGISTRY;
  const pkg = nodePackageName(opts.platform ?? process.platform, opts.arch ?? process.arch);
  const store = new FetchedToolchainStore(opts.cacheRoot);
  return {
    name: "node",
    source: `the npm registry (${registry})`,
    async fetch(pin: Pin, signal?: AbortSignal) {
      if (pkg === null) return { unsupported: `the npm registry has no Node package for ${opts.platform ?? process.platform}-${opts.arch ?? process.arch}` };
      let refused: string | undefined;
      const cached = await store.versions(pkg);
      const fromCache = nodeVersionFor(pin, cached);
      if ("version" in fromCache) {
        const held = await store.open(pkg, fromCache.version);
        if (held.kind === "ok") return fetched(pkg, held.entry, "cache");
        if (held.kind === "refused") refused = `the cached ${pkg}@${fromCache.version} was refused: ${held.why}`;
      }
      const published = await publishedVersions(registry, pkg, signal);
      const chosen = nodeVersionFor(
        pin,
        published.map((d) => d.version),
      );
      if (!("version" in chosen)) return chosen;
      const dist = published.find((d) => d.version === chosen.version)!;
      const entry = await store.fetch(pkg, registry, dist, signal);
      return fetched(pkg, entry, refused ? "refetched" : "downloaded", refused);
    },
  };
}

function fetched(pkg: string, entry: FetchedEntry, from: FetchedFrom, refused?: string): Fetched {
  const { version, registry, integrity } = entry.meta;
  return {
    installed: { name: "node", version, aliases: [`v${version}`], dir: entry.tree, bin: path.join(entry.tree, "bin"), manager: "fetched" },
    package: `${pkg}@${version}`,
    registry,
    integrity,
    from,
    ...(refused ? { refused } : {}),
  };
}
