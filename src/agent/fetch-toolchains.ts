import { REPO_CONFIG_PATH } from "../config/repo-config.js";
import { nodeFetcher, ToolchainFetchError, type Fetched } from "../depcache/index.js";
import type { ToolchainRecord, UnmetToolchain } from "../session/types.js";
import { readPins } from "../toolchain/pins.js";
import type { ResumeOptions } from "./runtime-options.js";

export interface FetchOutcome {
  fetched: Fetched[];
  /** Why a toolchain was not fetched, by name: added to what the blocked session says to install. */
  notes: Map<string, string>;
}

/**
 * The toolchains a pin asks for and the host lacks, fetched into the dependency cache when the
 * repository lets setup reach the registries (sandbox.network_for_setup): the fetch runs nothing it
 * gets, so it needs no more than that. Only required toolchains with a pin and a fetcher for their
 * name are tried; each failure becomes a note on the unmet toolchain, never an error of the resume.
 */
export async function fetchPinnedToolchains(unmet: readonly UnmetToolchain[], opts: ResumeOptions): Promise<FetchOutcome> {
  const out: FetchOutcome = { fetched: [], notes: new Map() };
  const fetchers = opts.toolchainFetchers ?? (opts.dependencyCache ? [nodeFetcher({ cacheRoot: opts.dependencyCache.root })] : []);
  const pins = await readPins(opts.workspace.root);
  for (const u of unmet) {
    const pin = pins.find((p) => p.name === u.name && !p.optional && !p.error);
    if (!u.required || !pin || !FETCHABLE.has(u.name)) continue;
    const fetcher = fetchers.find((f) => f.name === u.name);
    if (!fetcher) {
      out.notes.set(u.name, "fetching it needs the dependency cache (operator settings sandbox.dependency_cache_mb above 0)");
      continue;
    }
    if (!opts.repoConfig.sandbox.network_for_setup) {
      out.notes.set(u.name, `fetching it from ${fetcher.source} needs networked setup (sandbox.network_for_setup is false in ${REPO_CONFIG_PATH})`);
      continue;
    }
    try {
      const got = await fetcher.fetch(pin, opts.signal);
      if ("unsupported" in got) out.notes.set(u.name, `it is not fetched: ${got.unsupported}`);
      else out.fetched.push(got);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      const why = ToolchainFetchError.isInstance(e) ? e.message : ((e as Error).message ?? String(e)).split("\n")[0];
      out.notes.set(u.name, `fetching it from ${fetcher.source} failed: ${why}`);
    }
  }
  return out;
}

// The toolchains a fetcher exists for (src/depcache/toolchain-fetch).
const FETCHABLE = new Set(["node"]);

/** The record of a fetched toolchain says where it came from and how it was checked. */
export function withFetchRecord(t: ToolchainRecord, fetched: readonly Fetched[]): ToolchainRecord {
  const f = fetched.find((x) => x.installed.name === t.name && x.installed.bin === t.path);
  if (!f) return t;
  const words = {
    downloaded: "downloaded now, its sha512 checked against the registry's",
    cache: "from the dependency cache, checked against the manifest made when it was downloaded",
    refetched: `downloaded again, its sha512 checked against the registry's (${f.refused ?? "the cached copy was refused"})`,
  }[f.from];
  // choose.ts says `fetched 22.23.5, pinned by .node-version (22)`: the pin is kept, the rest said here.
  const pinned = t.how.replace(/^fetched [^\s,]+,? ?/, "");
  return {
    ...t,
    how: `${f.package} from ${f.registry}, ${words}${pinned ? `; ${pinned}` : ""}`,
    fetched: { package: f.package, registry: f.registry, integrity: f.integrity, from: f.from },
  };
}

/** An unmet toolchain with why it was not fetched, for the blocked message. */
export function withFetchNote(u: UnmetToolchain, notes: ReadonlyMap<string, string>): UnmetToolchain {
  const note = notes.get(u.name);
  return note ? { ...u, install: `${u.install}; ${note}` } : u;
}
