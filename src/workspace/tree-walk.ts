import type { Dirent } from "node:fs";
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { ListingScan, specialKind, type SpecialKind } from "./dir-listings.js";

export { specialKind, type SpecialKind };

/**
 * Walks the workspace the way git sees it: nested `.gitignore` files and `.git/info/exclude` are
 * honoured, `.git` is never shown. The model should see the repository, not `node_modules` or build
 * output, which would drown every listing and search; git's own snapshot needs the same view.
 *
 * Nothing but directories and ignore files is ever opened, and an ignore file only when it is a
 * regular file: a FIFO named `.gitignore` would block its reader for ever (and a libuv thread with
 * it). Special files — FIFOs, sockets, devices — and symlinks to them are never yielded; `onSpecial`
 * hears of each. The walk checks `signal` at every directory, so a caller's timeout or abort ends it.
 */
export interface WalkEntry {
  /** Workspace-relative POSIX path. */
  rel: string;
  abs: string;
  /** Symlinks are listed but never followed: their target may lie outside the workspace. */
  symlink: boolean;
}

export interface SpecialEntry {
  rel: string;
  kind: SpecialKind;
  /** The entry is a symlink whose target is the special file. */
  viaSymlink: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  onSpecial?: (entry: SpecialEntry) => void;
}

interface Matcher {
  /** Directory (workspace-relative, "" = root) whose patterns these are. */
  base: string;
  ig: Ignore;
}

/** An ignore file's patterns, read only if it is a regular file (git, too, refuses a symlinked one). */
async function matcherFrom(file: string, base: string): Promise<Matcher | null> {
  const st = await lstat(file).catch(() => null);
  if (!st?.isFile()) return null;
  const text = await readFile(file, "utf8").catch(() => null);
  return text === null ? null : matcherOf(text, base);
}

function matcherOf(text: string, base: string): Matcher {
  // git matches case-sensitively on Linux; the package's default is case-insensitive.
  return { base, ig: ignore({ ignorecase: false }).add(text) };
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

function join(dirRel: string, name: string): string {
  return dirRel === "" ? name : `${dirRel}/${name}`;
}

async function* walkDir(root: string, dirRel: string, inherited: readonly Matcher[], opts: WalkOptions): AsyncGenerator<WalkEntry> {
  opts.signal?.throwIfAborted();
  const dirAbs = path.join(root, dirRel);
  const entries: Dirent[] = await readdir(dirAbs, { withFileTypes: true }).catch(() => []);
  const ignoreFile = entries.find((e) => e.name === ".gitignore");
  const own = ignoreFile?.isFile() ? await matcherFrom(path.join(dirAbs, ".gitignore"), dirRel) : null;
  const matchers = own ? [...inherited, own] : inherited;
  // Byte order, not locale order: the same tree always lists the same way.
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name === ".git") continue;
    const rel = join(dirRel, e.name);
    const isDir = e.isDirectory();
    if (isIgnored(matchers, rel, isDir)) continue;
    const abs = path.join(dirAbs, e.name);
    const kind = specialKind(e);
    if (isDir) yield* walkDir(root, rel, matchers, opts);
    else if (kind) opts.onSpecial?.({ rel, kind, viaSymlink: false });
    else if (e.isFile()) yield { rel, abs, symlink: false };
    else if (e.isSymbolicLink()) {
      // stat follows the link without opening its target, so a FIFO behind it is seen, not read.
      const target = await stat(abs).catch(() => null);
      const behind = target ? specialKind(target) : null;
      if (behind) opts.onSpecial?.({ rel, kind: behind, viaSymlink: true });
      else yield { rel, abs, symlink: true };
    }
  }
}

/**
 * Files under `startRel` ("" = whole workspace) in a stable order. The ignore files of the start's
 * ancestors apply too, so walking `src/` hides what the root `.gitignore` hides there.
 */
export async function* walkFiles(root: string, startRel: string, opts: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const matchers: Matcher[] = [];
  const exclude = await matcherFrom(path.join(root, ".git", "info", "exclude"), "");
  if (exclude) matchers.push(exclude);
  const parts = startRel === "" ? [] : startRel.split("/");
  for (let i = 0; i < parts.length; i++) {
    const base = parts.slice(0, i).join("/");
    const m = await matcherFrom(path.join(root, base, ".gitignore"), base);
    if (m) matchers.push(m);
  }
  yield* walkDir(root, startRel, matchers, opts);
}

/**
 * Every special file of the tree git sees (ignored directories are not entered), without opening one,
 * in the order walkFiles meets them. Faster than walkFiles for this: regular files are passed over
 * without an ignore match (only directories and special entries need one), sibling directories are
 * read concurrently, and a directory whose stat has not changed since the last walk of this tree is
 * not read again (dir-listings.ts); on a checkout of 20k files this is what a snapshot waits for
 * before git.
 */
export async function findSpecialFiles(root: string, signal?: AbortSignal): Promise<SpecialEntry[]> {
  const scan = new ListingScan(root);
  const exclude = await scan.file(path.join(".git", "info", "exclude"), (text) => matcherOf(text, ""));
  const found = await specialIn(scan, root, "", exclude ? [exclude] : [], signal);
  scan.end();
  return found;
}

async function specialIn(
  scan: ListingScan,
  root: string,
  dirRel: string,
  inherited: readonly Matcher[],
  signal: AbortSignal | undefined,
): Promise<SpecialEntry[]> {
  signal?.throwIfAborted();
  const listing = await scan.listing(dirRel);
  const own = listing.gitignoreIsFile ? await scan.file(join(dirRel, ".gitignore"), (text) => matcherOf(text, dirRel)) : null;
  const matchers = own ? [...inherited, own] : inherited;
  const parts = await Promise.all(
    listing.entries.map(async (e): Promise<SpecialEntry[]> => {
      const rel = join(dirRel, e.name);
      if (isIgnored(matchers, rel, e.type === "dir")) return [];
      if (e.type === "dir") return specialIn(scan, root, rel, matchers, signal);
      if (e.type !== "symlink") return [{ rel, kind: e.type, viaSymlink: false }];
      // stat follows the link without opening its target, so a FIFO behind it is seen, not read.
      // Never remembered: the target can change without the link's directory changing.
      const target = await stat(path.join(root, rel)).catch(() => null);
      const behind = target ? specialKind(target) : null;
      return behind ? [{ rel, kind: behind, viaSymlink: true }] : [];
    }),
  );
  return parts.flat();
}
