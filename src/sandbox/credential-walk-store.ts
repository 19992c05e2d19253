import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A toolchain directory's credential walk, kept in the operator's data directory so that the next
 * process need not walk tens of thousands of files again. A walk is taken only while every directory
 * it read has the same device, inode, modification and change time as when it was read: adding,
 * removing or renaming an entry changes its directory's times, and a replaced directory has another
 * inode. The change time cannot be set back by a user, so a credential file put anywhere in the tree
 * makes the kept walk void. Anything that does not match — a missing or unreadable record, another
 * format, a directory gone — means walking again, never skipping the walk.
 */

export interface CredentialEntry {
  path: string;
  kind: "file" | "dir";
}

/** A walk's result: the credential entries, and every directory it read, stamped before it was read. */
export interface TreeWalk {
  entries: CredentialEntry[];
  dirs: DirStamp[];
  /** A directory was read whose stamp is not among `dirs`: the walk cannot vouch for the tree. */
  unstamped?: true;
}

/** One directory as a walk read it: `rel` to the walked root ("" for the root itself), the numbers as decimal strings. */
export interface DirStamp {
  rel: string;
  dev: string;
  ino: string;
  mtimeNs: string;
  ctimeNs: string;
}

export interface KeptWalk {
  format: typeof FORMAT;
  dir: string;
  dirs: DirStamp[];
  /** The credential entries' paths relative to `dir`: their kinds are looked at again on each use. */
  found: string[];
}

const FORMAT = "patchgate-credential-walk-1";
/** A record being written, renamed into place once whole. */
export const TMP_SUFFIX = ".tmp";

/**
 * A directory changed in the same tick of the file system's clock as it was stamped would keep its
 * stamp, so a walk is kept only when every stamp is older than the walk's start by this much.
 */
const SETTLED_NS = 3_000_000_000n;

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** The stamp of the directory at `abs` now, or null when it is not a directory. */
export function stampOf(abs: string, rel: string): DirStamp | null {
  try {
    const st = lstatSync(abs, { bigint: true });
    if (!st.isDirectory()) return null;
    return { rel, dev: String(st.dev), ino: String(st.ino), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs) };
  } catch {
    return null;
  }
}

/** A `d <dev> <ino> <mtime> <ctime> <path>` line of find's -printf; null when it does not read as one. */
export function findStamp(root: string, line: string): DirStamp | null {
  const m = /^d (\d+) (\d+) (\d+\.\d+) (\d+\.\d+) (.*)$/s.exec(line);
  if (m === null || !m[5]!.startsWith(root + path.sep)) return null;
  return { rel: m[5]!.slice(root.length + 1), dev: m[1]!, ino: m[2]!, mtimeNs: secondsToNs(m[3]!), ctimeNs: secondsToNs(m[4]!) };
}

/** "1779295726.123456789" (find's %T@) as nanoseconds; a fraction finer than ns is cut. */
function secondsToNs(s: string): string {
  const [whole, frac] = s.split(".") as [string, string];
  return String(BigInt(whole) * 1_000_000_000n + BigInt(frac.padEnd(9, "0").slice(0, 9)));
}

/** A path relative to the walked root that stays below it. */
const inside = (rel: string) => rel !== "" && !path.isAbsolute(rel) && !rel.split(path.sep).includes("..");

/** Where `dir`'s walk is kept in `store`: one file per directory path. */
export const recordFile = (store: string, dir: string) => path.join(store, `${createHash("sha256").update(dir).digest("hex")}.json`);

/** Whether `kept` is `dir`'s record and every directory it read is unchanged now. */
export function stillTrue(kept: KeptWalk, dir: string): boolean {
  if (kept.dir !== dir || !kept.dirs.some((d) => d.rel === "") || !kept.found.every(inside)) return false;
  return kept.dirs.every((d) => {
    const now = stampOf(path.join(dir, d.rel), d.rel);
    return now !== null && now.dev === d.dev && now.ino === d.ino && now.mtimeNs === d.mtimeNs && now.ctimeNs === d.ctimeNs;
  });
}

/** The kept walk of `dir`, when every directory it read is unchanged; null means walk again. */
export async function keptWalk(store: string, dir: string, kindOf: (p: string) => Promise<CredentialEntry["kind"] | null>): Promise<CredentialEntry[] | null> {
  const text = await readFile(recordFile(store, dir), "utf8").catch(() => null);
  const kept = text === null ? null : parseKept(text);
  if (kept === null || !stillTrue(kept, dir)) return null;
  const out: CredentialEntry[] = [];
  for (const rel of kept.found) {
    const p = path.join(dir, rel);
    const kind = await kindOf(p);
    if (kind !== null) out.push({ path: p, kind });
  }
  return out;
}

/**
 * Keeps `walk` of `dir` for later processes, when it can vouch for it: every directory stamped, and
 * none changed within SETTLED_NS of `startedAtNs`. Written beside and renamed, so a reader sees a
 * whole record or none; a record that cannot be written is simply not kept.
 */
export async function keepWalk(store: string, dir: string, walk: TreeWalk, startedAtNs: bigint): Promise<void> {
  const settled = (d: DirStamp) =>
    /^\d+$/.test(d.mtimeNs) && /^\d+$/.test(d.ctimeNs) && BigInt(d.mtimeNs) < startedAtNs - SETTLED_NS && BigInt(d.ctimeNs) < startedAtNs - SETTLED_NS;
  if (walk.unstamped || !walk.dirs.some((d) => d.rel === "") || !walk.dirs.every(settled)) return;
  const found = walk.entries.map((e) => path.relative(dir, e.path));
  if (!found.every(inside)) return;
  const record: KeptWalk = { format: FORMAT, dir, dirs: walk.dirs, found };
  const file = recordFile(store, dir);
  const tmp = `${file}.${process.pid}.${Date.now()}${TMP_SUFFIX}`;
  try {
    await mkdir(store, { recursive: true, mode: 0o700 });
    await writeFile(tmp, JSON.stringify(record), { mode: 0o600 });
    await rename(tmp, file);
  } catch {
    // Not kept: the next process walks again.
  }
}

/** A record as written by keepWalk, or null when `text` is not one. */
export function parseKept(text: string): KeptWalk | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const r = v as Partial<KeptWalk>;
  const isString = (x: unknown): x is string => typeof x === "string";
  const isStamp = (d: unknown): d is DirStamp =>
    typeof d === "object" && d !== null && [d as DirStamp].every((s) => [s.rel, s.dev, s.ino, s.mtimeNs, s.ctimeNs].every(isString));
  if (r.format !== FORMAT || !isString(r.dir) || !Array.isArray(r.dirs) || !Array.isArray(r.found)) return null;
  if (!r.dirs.every(isStamp) || !r.found.every(isString)) return null;
  return { format: FORMAT, dir: r.dir, dirs: r.dirs, found: r.found };
}
