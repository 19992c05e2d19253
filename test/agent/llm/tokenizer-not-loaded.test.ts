import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The o200k tokenizer costs ~165 MB and a ~0.4 s event-loop block when built. The app and the CLI
 * estimate prompt size from bytes instead (src/agent/context/prompt-size.ts); the exact tokenizer
 * is for the benches. This walks the import graph of every entry point, static and dynamic imports.
 */
const ENTRIES = ["src/main.ts", "src/index.ts", "src/cli/main.ts"];
const TOKENIZER = [/js-tiktoken/, /src\/agent\/llm\/tokens\.ts$/];

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((s) => {
    if (!s.startsWith(".")) return s;
    const abs = path.join(path.dirname(file), s).replace(/\.js$/, ".ts");
    return existsSync(abs) ? abs : existsSync(`${abs}.ts`) ? `${abs}.ts` : path.join(abs, "index.ts");
  });
}

function reachable(entries: string[]): Map<string, string> {
  const from = new Map<string, string>(entries.map((e) => [e, "(entry)"]));
  const todo = [...entries];
  while (todo.length > 0) {
    const f = todo.pop()!;
    for (const dep of importsOf(f)) {
      if (from.has(dep)) continue;
      from.set(dep, f);
      if (dep.endsWith(".ts") && existsSync(dep)) todo.push(dep);
    }
  }
  return from;
}

describe("the exact tokenizer", () => {
  it("is reachable from no entry point of the app or the CLI", () => {
    const graph = reachable(ENTRIES);
    expect(graph.size).toBeGreaterThan(100);
    const offenders = [...graph.keys()].filter((m) => TOKENIZER.some((t) => t.test(m))).map((m) => `${m} (imported by ${graph.get(m)})`);
    expect(offenders).toEqual([]);
  });

  it("is found by the walk when a module does import it (the check can fail)", () => {
    const graph = reachable(["bench/context.ts"]);
    expect([...graph.keys()].some((m) => TOKENIZER[1]!.test(m))).toBe(true);
  });
});
