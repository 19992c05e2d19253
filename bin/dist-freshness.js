// Whether dist/ holds what src/ compiles to now. `npm run build` (bin/build.js) writes dist/.built-at,
// the time its compile started, only once tsc succeeded; a source or tsconfig changed after that time
// makes dist/ stale. Without src/ (the image ships dist/ alone) dist/ is all there is, and current.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const STAMP = join("dist", ".built-at");

/** Why dist/ is not what src/ compiles to now, or null when it is. */
export function staleDist(root) {
  if (!existsSync(join(root, "src"))) return null;
  if (!existsSync(join(root, STAMP))) return "dist/ was not built by `npm run build` from these sources";
  const builtAt = Number(readFileSync(join(root, STAMP), "utf8"));
  const newer = sourceFiles(root).find((f) => statSync(join(root, f)).mtimeMs > builtAt);
  return newer === undefined ? null : `${newer} changed after dist/ was built`;
}

/** Records that dist/ was compiled from the sources as they were at `startedAt` (ms since the epoch). */
export function stampDist(root, startedAt) {
  writeFileSync(join(root, STAMP), String(startedAt));
}

/** The tsconfigs, src/ and everything in it: a directory's time moves when a file in it is added or removed. */
function sourceFiles(root) {
  const found = ["tsconfig.json", "tsconfig.build.json", "src"].filter((f) => existsSync(join(root, f)));
  for (const entry of readdirSync(join(root, "src"), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() || entry.isDirectory()) found.push(relative(root, join(entry.parentPath, entry.name)));
  }
  return found;
}
