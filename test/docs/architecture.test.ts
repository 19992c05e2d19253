import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * ARCHITECTURE.md is a map; a map that names files or functions that moved sends the next person
 * nowhere. Every `src/…` path in it must exist, every symbol named right after a file must be
 * exported by that file, and every folder of src/ must be on the layer diagram.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const doc = readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");

/** `src/a/b.ts` `sym1`, `sym2` → [file, [sym1, sym2]]: the symbols in code spans right after a file. */
function namedSymbols(text: string): [string, string[]][] {
  const out: [string, string[]][] = [];
  const re = /`(src\/[\w./-]+\.ts)`((?:,? `[A-Za-z_][\w]*`)*)/g;
  for (const m of text.matchAll(re)) out.push([m[1], [...m[2].matchAll(/`([A-Za-z_]\w*)`/g)].map((s) => s[1])]);
  return out;
}

test("every file the map names exists", () => {
  const paths = [...doc.matchAll(/`(src\/[\w./-]*)`/g)].map((m) => m[1]);
  expect(paths.length).toBeGreaterThan(30);
  expect(paths.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
});

test("every symbol named after a file is exported by it", () => {
  const named = namedSymbols(doc).filter(([, syms]) => syms.length > 0);
  expect(named.length).toBeGreaterThan(20);
  const missing = named.flatMap(([file, syms]) => {
    const source = readFileSync(path.join(ROOT, file), "utf8");
    return syms.filter((s) => !new RegExp(`export (?:async )?(?:function|const|class|interface|type) ${s}\\b`).test(source)).map((s) => `${file} ${s}`);
  });
  expect(missing).toEqual([]);
});

test("every folder of src/ is on the layer diagram", () => {
  const diagram = /## Layers[\s\S]*?```([\s\S]*?)```/.exec(doc)?.[1] ?? "";
  const folders = readdirSync(path.join(ROOT, "src"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  expect(folders.filter((f) => !diagram.includes(`${f}/`))).toEqual([]);
});
