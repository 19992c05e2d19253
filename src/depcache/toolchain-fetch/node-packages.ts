import { atLeast, matchesPrefix, newestFirst, numericParts } from "../../toolchain/versions.js";
import type { Pin } from "../../toolchain/types.js";

/**
 * The npm registry's packages of Node's release binaries, `node-<platform>-<arch>`, one version per
 * Node release: the tarball holds `bin/node`, `include/` and `share/` (no npm, no install script).
 * Only the platforms whose packages have that layout are named; anything else fetches nothing.
 */
const PLATFORMS = new Set(["linux", "darwin"]);
const ARCHES: Record<string, string> = { x64: "x64", arm64: "arm64", s390x: "s390x", ppc64: "ppc64le", arm: "armv7l" };

export function nodePackageName(platform: string, arch: string): string | null {
  const a = ARCHES[arch];
  return PLATFORMS.has(platform) && a ? `node-${platform}-${a}` : null;
}

// nvm's LTS names, each a release line's major for good: a new line adds one here.
const LTS_LINES: Record<string, number> = {
  argon: 4,
  boron: 6,
  carbon: 8,
  dubnium: 10,
  erbium: 12,
  fermium: 14,
  gallium: 16,
  hydrogen: 18,
  iron: 20,
  jod: 22,
  krypton: 24,
};

/**
 * The newest published release a Node pin takes, or why none is fetched for it. A version or its
 * prefix (`22`, `22.14`, `v22.14.0`), an LTS line by name (`lts/jod`) and a floor (engines' `>=20.9`:
 * the newest release of the least line that meets it) name releases; `lts/*`, `node` or `latest`
 * name whatever is newest on the day, which a fetch would turn into a different toolchain from one
 * session to the next, so they are not fetched.
 */
export function nodeVersionFor(pin: Pin, published: readonly string[]): { version: string } | { unsupported: string } {
  const spec = pin.spec.trim();
  const lts = /^lts\/([a-z]+)$/.exec(spec);
  const prefix = lts ? (LTS_LINES[lts[1]] === undefined ? null : String(LTS_LINES[lts[1]])) : /^v?\d+(\.\d+){0,2}$/.test(spec) ? spec : null;
  if (prefix === null)
    return { unsupported: `${pin.source} asks for ${JSON.stringify(spec)}, which names no fixed release line: pin a version (e.g. 22) to have it fetched` };
  const releases = published.filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const major = (v: string) => numericParts(v)?.[0];
  let fits: string[];
  if (pin.rule === "major") fits = releases.filter((v) => major(v) === major(prefix));
  else if (pin.rule === "prefix") fits = releases.filter((v) => matchesPrefix(prefix, v));
  else {
    const above = releases.filter((v) => atLeast(v, prefix));
    const least = Math.min(...above.map((v) => major(v)!));
    fits = above.filter((v) => major(v) === least);
  }
  const newest = newestFirst(fits.map((version) => ({ version })))[0];
  if (newest) return newest;
  return {
    unsupported:
      pin.rule === "at_least" ? `no release of Node is ${spec} or later (${pin.source})` : `no release of Node matches ${JSON.stringify(spec)} (${pin.source})`,
  };
}
