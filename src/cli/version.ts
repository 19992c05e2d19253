import { readFileSync } from "node:fs";

/** `patchgate --version`: the package's version, read from package.json two levels up in src/ and in dist/ alike. */
export function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
  return `${pkg.name} ${pkg.version}`;
}
