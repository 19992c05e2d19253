import { createHash, randomUUID } from "node:crypto";
import { existsSync, globSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { transform } from "@swc/core";
import { pruneTempEntries } from "./prune-temp.js";

const ROOT = join(import.meta.dirname, "../..");
const PREFIX = "patchgate-compiled-app-";
const DONE = ".complete";
/** This checkout's builds: only they are pruned here (another checkout may be running its own). */
const MINE = `${PREFIX}${createHash("sha256").update(ROOT).digest("hex").slice(0, 8)}-`;
/** A build of this checkout not used for this long is from sources since changed (a test in flight uses its tree at each start). */
const STALE_MS = 60 * 60 * 1000;

/** What jest.config.js compiles the same files with. */
const SWC = { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } } as const;

/**
 * The app process of a crash test, and the CLI of `runCli`, run from JavaScript compiled once, as
 * `npm start` runs dist/, not through tsx, whose loader resolves and loads each of some 700 modules on
 * every start: about half of a start's CPU, in tests that start the app or the CLI dozens of times. Each file is compiled on its own (no
 * bundle) with jest's swc settings, so the tree keeps the repository's layout: imports,
 * `import.meta.url` paths and node_modules resolve as they do from the sources. The tree is keyed by
 * the sources' content: the test files of a run share one, and a changed source gets a new one.
 */
let pending: Promise<string> | null = null;

/** The compiled tree's root (it mirrors the repository's). */
export async function compiledApp(): Promise<string> {
  const dir = await (pending ??= compile());
  const now = new Date();
  utimesSync(dir, now, now); // in use: not stale
  return dir;
}

/** The CLI's entry in the compiled tree (what `npx patchgate` runs from dist/). */
export async function cliMain(): Promise<string> {
  return join(await compiledApp(), "src/cli/main.js");
}

function sources(): string[] {
  return globSync(["src/**/*.ts", "test/**/*.ts"], { cwd: ROOT, exclude: (f) => f.endsWith(".test.ts") }).sort();
}

async function compile(): Promise<string> {
  const files = sources();
  const hash = createHash("sha256");
  for (const f of files)
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(ROOT, f)))
      .update("\0");
  const dir = join(tmpdir(), `${MINE}${hash.digest("hex").slice(0, 20)}`);
  if (existsSync(join(dir, DONE))) return dir;

  // Built beside, then renamed into place: a test file of another jest worker may build the same at once.
  const draft = `${dir}.draft-${randomUUID()}`;
  await Promise.all(
    files.map(async (f) => {
      const { code } = await transform(readFileSync(join(ROOT, f), "utf8"), { filename: f, ...SWC });
      const out = join(draft, f.replace(/\.ts$/, ".js"));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
  // Everything else at the root (node_modules, package.json, …) is the repository's own.
  for (const entry of readdirSync(ROOT)) if (entry !== "src" && entry !== "test") symlinkSync(join(ROOT, entry), join(draft, entry));
  writeFileSync(join(draft, DONE), "");
  try {
    renameSync(draft, dir);
  } catch {
    rmSync(draft, { recursive: true, force: true }); // the other build won
  }
  pruneTempEntries(MINE, dir, STALE_MS);
  return dir;
}
