import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Every process the app starts goes through src/process/start-process.ts, so its fork happens in the
 * spawn helper and never stalls the app's event loop. This scan (static and dynamic imports,
 * require, and the libraries that spawn for you) holds every other file in src/ to that; ESLint's
 * no-restricted-imports says the same at edit time (eslint.config.js).
 */
const ROOT = join(import.meta.dirname, "../..");

const SPAWNING = [
  /["'](node:)?child_process["']/,
  /["']cross-spawn["']/,
  /["']execa["']/,
  /["']simple-git["']/,
  /["']@modelcontextprotocol\/sdk\/client\/stdio(\.js)?["']/,
];

/** The exceptions, each with why it may. */
const ALLOWED: Record<string, string> = {
  "src/process/helper-connection.ts": "starts the spawn helper itself: the one fork the app's own process makes, once per helper",
  "src/process/helper-source.ts": "the helper's own code, which runs in its own small process (node -e)",
  "src/sandbox/egress/forwarder.ts": "CommonJS that runs inside the sandbox as its own process, started there by bwrap",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(ts|js|mjs|cjs)$/.test(e.name) ? [relative(ROOT, full)] : [];
  });
}

const spawns = (file: string): boolean => SPAWNING.some((re) => re.test(readFileSync(join(ROOT, file), "utf8")));

test("nothing in src/ starts a process except through src/process/start-process.ts", () => {
  const files = sources(join(ROOT, "src"));
  const offenders = files.filter((f) => !(f in ALLOWED) && spawns(f));
  expect(offenders).toEqual([]);
  // The scan finds what it looks for: every exception is still there and still spawns (else drop it).
  expect(Object.keys(ALLOWED).filter((f) => !files.includes(f) || !spawns(f))).toEqual([]);
});
