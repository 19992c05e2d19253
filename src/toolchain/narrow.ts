import path from "node:path";

/**
 * The rule every toolchain bind obeys: a toolchain's own directory, never HOME or a directory that
 * contains it (nor Patchgate's own directory, which holds its `.env`). Returns why a directory may
 * not be bound, or null when it may.
 */
export function bindRefusal(dir: string, protectedDirs: readonly string[]): string | null {
  if (!path.isAbsolute(dir)) return `${dir} is not an absolute path`;
  const d = path.resolve(dir);
  if (d === "/") return "it is the root directory";
  if (path.dirname(d) === "/home") return "it is a home directory";
  for (const p of protectedDirs) {
    const q = path.resolve(p);
    if (q === d || q.startsWith(`${d}/`)) return `it ${q === d ? "is" : "contains"} ${q}`;
  }
  if (/^\/(proc|sys|dev|etc|run|var\/run)(\/|$)/.test(d)) return "it is a system directory";
  return null;
}
