import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * Walks the workspace the way git sees it: nested `.gitignore` files and `.git/info/exclude` are
 * honoured, `.git` is never shown. The model should see the repository, not `node_modules` or build
 * output, which would drown every listing and search.
 */
export interface WalkEntry {
  /** Workspace-relative POSIX path. */
  rel: string;
  abs: string;
  /** Symlinks are listed but never followed: their target may lie outside the workspace. */
  symlink: boolean;
}

interface Matcher {
  /** Directory (workspace-relative, "" = root) whose patterns these are. */
  base: string;
  ig: Ignore;
}

async function readText(file: string): Promise<string | null> {
  return readFile(file, "utf8").catch(() => null);
}

async function matcherAt(root: string, base: string, file = ".gitignore"): Promise<Matcher | null> {
  const text = await readText(path.join(root, base, file));
  // git matches case-sensitively on Linux; the package's default is case-insensitive.
  return text === null ? null : { base, ig: ignore({ ignorecase: false }).add(text) };
}

/** git precedence: the deepest file with a matching pattern decides, `!pattern` included. */
function isIgnored(matchers: readonly Matcher[], rel: string, isDir: boolean): boolean {
  for (let i = matchers.length - 1; i >= 0; i--) {
    const m = matchers[i];
    const sub = m.base === "" ? rel : rel.slice(m.base.length + 1);
    const r = m.ig.test(isDir ? `${sub}/` : sub);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

async function* walkDir(root: string, dirRel: string, inherited: readonly Matcher[]): AsyncGenerator<WalkEntry> {
  const own = await matcherAt(root, dirRel);
  const matchers = own ? [...inherited, own] : inherited;
  const dirAbs = path.join(root, dirRel);
  const entries = await readdir(dirAbs, { withFileTypes: true }).catch(() => []);
  // Byte order, not locale order: the same tree always lists the same way.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name === ".git") continue;
    const rel = dirRel === "" ? e.name : `${dirRel}/${e.name}`;
    const isDir = e.isDirectory();
    if (isIgnored(matchers, rel, isDir)) continue;
    if (isDir) yield* walkDir(root, rel, matchers);
    else if (e.isFile() || e.isSymbolicLink()) yield { rel, abs: path.join(dirAbs, e.name), symlink: e.isSymbolicLink() };
  }
}

/**
 * Files under `startRel` ("" = whole workspace) in a stable order. The ignore files of the start's
 * ancestors apply too, so walking `src/` hides what the root `.gitignore` hides there.
 */
export async function* walkFiles(root: string, startRel: string): AsyncGenerator<WalkEntry> {
  const matchers: Matcher[] = [];
  const exclude = await matcherAt(root, "", path.join(".git", "info", "exclude"));
  if (exclude) matchers.push(exclude);
  const parts = startRel === "" ? [] : startRel.split("/");
  for (let i = 0; i < parts.length; i++) {
    const base = parts.slice(0, i).join("/");
    const m = await matcherAt(root, base);
    if (m) matchers.push(m);
  }
  yield* walkDir(root, startRel, matchers);
}

