import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** One import of one file of src/ by another: `from` and `to` are paths relative to src/ (`agent/loop.ts`). */
export interface ImportEdge {
  from: string;
  to: string;
  /** `import("…")` at run time: the edge exists, but the module loads only when the call runs. */
  dynamic: boolean;
  /** Only types cross it (`import type`, `typeof import("…")`): nothing loads at run time. */
  typeOnly: boolean;
}

/** Every `.ts` file under `dir`, relative to it, sorted. */
export function sourceFiles(dir: string, sub = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...sourceFiles(dir, rel));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(rel);
  }
  return out.sort();
}

interface Specifier {
  text: string;
  dynamic: boolean;
  typeOnly: boolean;
}

/** The module specifiers one file names: static imports, `export … from`, `import("…")` with a literal, `typeof import("…")`. */
export function specifiers(fileName: string, source: string): Specifier[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: Specifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ text: node.moduleSpecifier.text, dynamic: false, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ text: node.moduleSpecifier.text, dynamic: false, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) out.push({ text: arg.text, dynamic: true, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ text: node.argument.literal.text, dynamic: false, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** `./x.js` from `agent/loop.ts` → `agent/x.ts` (or `agent/x/index.ts`); null for a package or a file outside src/. */
function resolve(srcDir: string, fromFile: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), spec));
  if (target.startsWith("..")) return null;
  const base = target.replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (existsSync(path.join(srcDir, candidate))) return candidate;
  return null;
}

/** The import graph of every file under `srcDir` (only edges between files of it). */
export function importGraph(srcDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    for (const spec of specifiers(file, readFileSync(path.join(srcDir, file), "utf8"))) {
      const to = resolve(srcDir, file, spec.text);
      if (to !== null && to !== file) edges.push({ from: file, to, dynamic: spec.dynamic, typeOnly: spec.typeOnly });
    }
  }
  return edges;
}

/** The top-level folder of a file relative to src/ (`agent/llm/x.ts` → `agent`); a file at the top is its own name. */
export function folderOf(file: string): string {
  const slash = file.indexOf("/");
  return slash === -1 ? file : file.slice(0, slash);
}

/**
 * The cycles of a directed graph: one per strongly connected component with more than one node,
 * shown as a closed path through it (a → b → … → a) so a reviewer sees the arrows to cut.
 */
export function cycles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's strongly connected components; recursion is fine at the depth of src/'s imports.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return components.map((component) => closedPath(component, next)).sort((a, b) => a[0].localeCompare(b[0]));
}

/** A path from the component's first node back to it that visits as many of its nodes as a greedy walk finds. */
function closedPath(component: string[], next: Map<string, string[]>): string[] {
  const inside = new Set(component);
  const start = component[0];
  // Shortest way back to start from each node (breadth-first over reversed edges), to close the walk.
  const back = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const [from, tos] of next) {
      if (!inside.has(from) || back.has(from) || !tos.includes(node)) continue;
      back.set(from, node);
      queue.push(from);
    }
  }
  const walk = [start];
  const seen = new Set([start]);
  let at = start;
  for (;;) {
    const fresh = next.get(at)!.filter((to) => inside.has(to) && !seen.has(to));
    if (fresh.length === 0) break;
    at = fresh.sort()[0];
    walk.push(at);
    seen.add(at);
  }
  while (at !== start) {
    at = back.get(at)!;
    walk.push(at);
  }
  return walk;
}
