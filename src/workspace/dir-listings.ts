import type { BigIntStats, Dirent } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { settled, statKey } from "./stat-tick.js";

/**
 * Directory listings and small files remembered by stat, for the special-file walk a snapshot waits
 * for before git (tree-walk.ts `findSpecialFiles`). Reading 200 directories of a 20k-file checkout
 * costs more than the rest of the snapshot's own work; stat'ing them costs a fifth of that. A
 * directory's ctime moves whenever an entry is added, removed, renamed or replaced (an entry's type
 * cannot change in place), and no process can set ctime back, so an unchanged stat means an unchanged
 * listing — once the ctime's tick is over (stat-tick.ts). Nothing is trusted that was not stat'ed in
 * the same walk: every directory is stat'ed every time, every remembered file too.
 */
export type SpecialKind = "fifo" | "socket" | "character device" | "block device";

export function specialKind(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): SpecialKind | null {
  if (st.isFIFO()) return "fifo";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "character device";
  if (st.isBlockDevice()) return "block device";
  return null;
}

/** An entry the special-file walk looks at; regular files are left out (and `.git`, never shown). */
interface ListedEntry {
  name: string;
  type: "dir" | "symlink" | SpecialKind;
}

export interface DirListing {
  /** In byte order of the names. */
  entries: readonly ListedEntry[];
  /** `.gitignore` is there as a regular file (by its directory entry; the reader checks it again). */
  gitignoreIsFile: boolean;
}

interface Remembered<T> {
  key: string;
  value: T;
}

interface RootMemory {
  dirs: Map<string, Remembered<DirListing>>;
  files: Map<string, Remembered<unknown>>;
}

const roots = new Map<string, RootMemory>();
const MAX_ROOTS = 256;
const EMPTY: DirListing = { entries: [], gitignoreIsFile: false };

function listed(entries: Dirent[]): DirListing {
  const kept: ListedEntry[] = [];
  for (const e of entries) {
    if (e.name === ".git" || e.isFile()) continue;
    const type = e.isDirectory() ? "dir" : e.isSymbolicLink() ? "symlink" : specialKind(e);
    if (type) kept.push({ name: e.name, type });
  }
  // Byte order, not locale order: the same tree always lists the same way.
  kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries: kept, gitignoreIsFile: entries.some((e) => e.name === ".gitignore" && e.isFile()) };
}

/**
 * One walk of one tree. Every directory the last walk listed is stat'ed at once when the walk
 * begins (before anything is read), so the walk waits for one round of stats instead of a readdir
 * per level; what this walk reads and trusts replaces the memory when it ends.
 */
export class ListingScan {
  private readonly stats = new Map<string, Promise<BigIntStats | null>>();
  private readonly dirs = new Map<string, Remembered<DirListing>>();
  private readonly files = new Map<string, Remembered<unknown>>();
  private readonly memory: RootMemory;

  /** `now` is when the walk began; a test passes a later one to make every stamp count as settled. */
  constructor(
    private readonly root: string,
    private readonly now = Date.now(),
  ) {
    this.memory = roots.get(root) ?? { dirs: new Map(), files: new Map() };
    for (const rel of this.memory.dirs.keys()) this.stats.set(rel, this.lstat(rel));
  }

  private lstat(rel: string): Promise<BigIntStats | null> {
    return lstat(path.join(this.root, rel), { bigint: true }).catch(() => null);
  }

  /** The listing of `rel` ("" = the root); an unreadable directory lists as empty, as readdir failing did. */
  async listing(rel: string): Promise<DirListing> {
    const st = await (this.stats.get(rel) ?? this.lstat(rel));
    const key = st?.isDirectory() ? statKey(st) : null;
    const known = this.memory.dirs.get(rel);
    if (key !== null && known?.key === key) {
      this.dirs.set(rel, known);
      return known.value;
    }
    const entries = await readdir(path.join(this.root, rel), { withFileTypes: true }).catch(() => null);
    if (entries === null) return EMPTY;
    const value = listed(entries);
    if (key !== null && settled(st!.ctimeNs, this.now)) this.dirs.set(rel, { key, value });
    return value;
  }

  /** `parse` of a regular file's text (null if it is not one or cannot be read), parsed again only when its stat changed. */
  async file<T>(rel: string, parse: (text: string) => T): Promise<T | null> {
    const st = await this.lstat(rel);
    if (!st?.isFile()) return null;
    const key = statKey(st);
    const known = this.memory.files.get(rel);
    if (known?.key === key) {
      this.files.set(rel, known);
      return known.value as T;
    }
    const text = await readFile(path.join(this.root, rel), "utf8").catch(() => null);
    if (text === null) return null;
    const value = parse(text);
    if (settled(st.ctimeNs, this.now)) this.files.set(rel, { key, value });
    return value;
  }

  /** Call once the walk is complete: what it saw is what the next walk starts from. */
  end(): void {
    roots.delete(this.root);
    if (roots.size >= MAX_ROOTS) roots.delete(roots.keys().next().value!);
    roots.set(this.root, { dirs: this.dirs, files: this.files });
  }
}
