import { createHash } from "node:crypto";
import { createReadStream, type BigIntStats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import type { TreeFile } from "./unpack.js";

/**
 * Trees this process has hashed and found whole, by directory: the identity of every entry then
 * (inode, size, change time). A write, chmod or replacement of any file changes its inode or its
 * ctime, which no user-space call can set back, so an unchanged identity stands for an unchanged
 * tree and a long-running worker hashes a toolchain once, not once per session. Held in memory
 * only: a record on disk could be rewritten by whoever could rewrite the tree.
 */
const wholeTrees = new Map<string, string>();

/**
 * Why an unpacked toolchain is no longer what its verified tarball held, or null when it is: every
 * file of the manifest present with its size, mode and sha256, and nothing else (no added file, no
 * link, no other kind of entry). The manifest was made while unpacking the verified tarball, so a
 * tree that passes is byte for byte what the registry's digest vouched for.
 */
export async function treeDifference(dir: string, files: readonly TreeFile[]): Promise<string | null> {
  const expected = new Map(files.map((f) => [f.path, f]));
  const { entries, identity } = await identityOf(dir, files);
  if (wholeTrees.get(dir) === identity) return null;
  wholeTrees.delete(dir);
  const seen = new Set<string>();
  for (const [rel, st] of entries) {
    if (st.isDirectory()) continue;
    const want = expected.get(rel);
    if (!st.isFile()) return `${rel} is not a regular file`;
    if (!want) return `${rel} was added`;
    seen.add(rel);
    if (st.size !== BigInt(want.size)) return `${rel} changed size`;
    if (((st.mode & 0o111n) !== 0n) !== want.executable || (st.mode & 0o7022n) !== 0n) return `${rel} changed mode`;
    if ((await sha256Of(path.join(dir, rel))) !== want.sha256) return `${rel} changed content`;
  }
  const missing = files.find((f) => !seen.has(f.path));
  if (missing) return `${missing.path} is missing`;
  wholeTrees.set(dir, identity);
  return null;
}

/**
 * Records a tree this process has just unpacked from a verified tarball as whole, so that its first
 * use is not a second hash of every file: the manifest was computed from those very bytes.
 */
export async function rememberUnpacked(dir: string, files: readonly TreeFile[]): Promise<void> {
  wholeTrees.set(dir, (await identityOf(dir, files)).identity);
}

async function identityOf(dir: string, files: readonly TreeFile[]): Promise<{ entries: [string, BigIntStats][]; identity: string }> {
  const entries: [string, BigIntStats][] = [];
  for (const rel of await walk(dir, "")) entries.push([rel, await lstat(path.join(dir, rel), { bigint: true })]);
  const identity = JSON.stringify([files.length, ...entries.map(([rel, st]) => `${rel} ${st.ino} ${st.size} ${st.mode} ${st.ctimeNs}`)]);
  return { entries, identity };
}

/** Every entry below `dir`, relative, directories before what they hold; links are listed, never followed. */
async function walk(dir: string, rel: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel === "" ? e.name : `${rel}/${e.name}`;
    out.push(child);
    if (e.isDirectory()) out.push(...(await walk(dir, child)));
  }
  return out;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
