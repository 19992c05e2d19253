#!/usr/bin/env node
// `npm run build`: compiles src/ into dist/, then records when (bin/dist-freshness.js), so that
// `npm start` and `npx patchgate` can tell a current dist/ from a stale one.
import { rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { stampDist } from "./dist-freshness.js";

/** Compiles; true when tsc succeeded. A failed compile leaves dist/ without a stamp: stale. */
export function build(root) {
  const startedAt = Date.now();
  rmSync(join(root, "dist", ".built-at"), { force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) return false;
  stampDist(root, startedAt);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(build(fileURLToPath(new URL("..", import.meta.url))) ? 0 : 1);
}
