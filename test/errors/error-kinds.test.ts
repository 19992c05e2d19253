import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FatalError, HandledError, PatchgateError } from "../../src/errors/patchgate-error.js";

/**
 * Every error class in src/ is found by reading the source, so a new one cannot slip past: each must
 * descend from FatalError (it ends the session) or HandledError (a caller answers it), never from
 * Error directly, and must give its `kind`.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const BASES = new Set(["Error", "TypeError", "RangeError", "SyntaxError"]);
const SIDES = new Set(["FatalError", "HandledError"]);

interface ErrorClass {
  name: string;
  parent: string;
  file: string;
  exported: boolean;
  body: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? sourceFiles(p) : d.name.endsWith(".ts") ? [p] : [];
  });
}

/** Every class declaration with its parent, and its body (empty for `{}`, else up to its closing brace at the margin). */
function classes(): ErrorClass[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return [...text.matchAll(/^(export )?(?:abstract )?class (\w+)(?:<[^>]*>)? extends (\w+)[^{]*\{(?:\}|([\s\S]*?)^\})/gm)].map((m) => ({
      name: m[2],
      parent: m[3],
      file: path.relative(SRC, file),
      exported: m[1] !== undefined,
      body: m[4] ?? "",
    }));
  });
}

/** The classes whose ancestry, through src's own classes, reaches one of JavaScript's errors. */
function errorClasses(): ErrorClass[] {
  const all = classes();
  const byName = new Map(all.map((c) => [c.name, c]));
  const reachesError = (c: ErrorClass, depth = 0): boolean =>
    BASES.has(c.parent) || (depth < 10 && byName.has(c.parent) && reachesError(byName.get(c.parent)!, depth + 1));
  return all.filter((c) => reachesError(c));
}

/** The side of the base a class stands on: FatalError or HandledError, or what it reaches instead. */
function side(c: ErrorClass, all: Map<string, ErrorClass>): string {
  let at = c;
  for (let depth = 0; depth < 10; depth++) {
    if (SIDES.has(at.parent) || BASES.has(at.parent)) return at.parent;
    const next = all.get(at.parent);
    if (!next) return at.parent;
    at = next;
  }
  return "(too deep)";
}

const found = errorClasses().filter((c) => !c.file.startsWith("errors/"));
const byName = new Map(found.map((c) => [c.name, c]));

test("the scan finds the error classes, exported or not", () => {
  const names = found.map((c) => c.name);
  expect(names).toEqual(expect.arrayContaining(["SandboxError", "ConfigError", "LLMError", "UsageError", "PublicationRefusedError", "GitRefusedError"]));
  expect(found.length).toBeGreaterThanOrEqual(25);
});

test.each(found.map((c) => [c.name, c]))("%s ends the session or is handled, by its class", (_name, c) => {
  expect(`${c.file}: ${c.name} extends ${side(c, byName)}`).toMatch(/ extends (FatalError|HandledError)$/);
});

test.each(found.filter((c) => SIDES.has(c.parent)).map((c) => [c.name, c]))("%s gives its kind", (_name, c) => {
  expect({ file: c.file, givesKind: /\bkind\b/.test(c.body) }).toEqual({ file: c.file, givesKind: true });
});

test.each(found.filter((c) => c.exported).map((c) => [c.name, c]))("%s is a PatchgateError with a session-ending flag", async (name, c) => {
  const mod = (await import(pathToFileURL(path.join(SRC, c.file)).href)) as Record<string, { prototype: object }>;
  const proto = mod[name].prototype as { endsSession?: unknown };
  expect([proto instanceof PatchgateError, typeof proto.endsSession]).toEqual([true, "boolean"]);
  expect(proto instanceof FatalError).toBe(proto.endsSession === true);
  expect(proto instanceof HandledError).toBe(proto.endsSession === false);
});

test("the base names an error by its class and finds it by name", () => {
  class ExampleError extends FatalError {
    readonly kind = "example";
  }
  const e = new ExampleError("one line naming what and where");
  expect([e.name, e.kind, e.endsSession, ExampleError.isInstance(e), ExampleError.isInstance(new Error("x"))]).toEqual([
    "ExampleError",
    "example",
    true,
    true,
    false,
  ]);
});
