import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The runner's own view of the final tree: it walks the directory instead of asking the runtime for
 * its diff, so a runtime that misreports its changes cannot hide them from the checks.
 */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const d of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        // .git is the clone's machinery; node_modules would only appear after a setup step.
        if (d.name !== ".git" && d.name !== "node_modules") walk(child);
      } else if (d.isFile()) {
        files.set(child, readFileSync(path.join(root, child), "utf8"));
      }
    }
  };
  if (existsSync(root)) walk("");
  return files;
}

/** Paths added, modified or deleted between two trees, sorted. */
export function changedPaths(base: Map<string, string>, final: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [p, content] of final) if (base.get(p) !== content) changed.add(p);
  for (const p of base.keys()) if (!final.has(p)) changed.add(p);
  return [...changed].sort();
}
