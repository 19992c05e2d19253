import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The golden cases shipped with Patchgate: `eval/cases` at the package root. Found by walking up to
 * package.json, because this file runs from `src/eval` (tsx, jest) and from `dist/eval` (built).
 */
export function builtinCasesDir(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return path.join(dir, "eval", "cases");
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
