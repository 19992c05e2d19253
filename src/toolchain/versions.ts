/** Version strings as toolchains write them: `v20.11.0`, `go1.22.3`, `3.11.7`, `1.95.0-nightly`. */

/** The dotted numbers at the start: `v20.11.0` → [20, 11, 0]; `go1.22rc1` → [1, 22]; `stable` → null. */
export function numericParts(version: string): number[] | null {
  const m = /^(?:v|go)?(\d+(?:\.\d+)*)/.exec(version.trim());
  return m ? m[1].split(".").map(Number) : null;
}

/** Numeric order; a missing part counts as 0 (`1.22` = `1.22.0`); non-numeric versions sort first. */
function compareVersions(a: string, b: string): number {
  const x = numericParts(a) ?? [];
  const y = numericParts(b) ?? [];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function bare(v: string): string {
  return v.trim().replace(/^(v|go)(?=\d)/, "");
}

/** `3.11` matches `3.11.7` and `3.11`; it does not match `3.1` or `3.110`. */
export function matchesPrefix(spec: string, version: string): boolean {
  const s = bare(spec);
  const v = bare(version);
  return v === s || v.startsWith(`${s}.`) || v.startsWith(`${s}-`);
}

export function atLeast(version: string, minimum: string): boolean {
  return numericParts(version) !== null && compareVersions(version, minimum) >= 0;
}

export function sameMajor(spec: string, version: string): boolean {
  const a = numericParts(spec);
  const b = numericParts(version);
  return a !== null && b !== null && a[0] === b[0];
}

/** Highest version first. */
export function newestFirst<T extends { version: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => compareVersions(b.version, a.version));
}
