import { createHash } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { gitOk } from "./git.js";
import { withMirrorLock } from "./mirror-lock.js";
import type { GitAuth } from "./types.js";
import { DEFAULT_MIRROR_MAX_AGE_MS, DEFAULT_MIRROR_MAX_BYTES, type MirrorSettings } from "./mirror-settings.js";

/**
 * One bare mirror per repository under the data directory, fetched when a session starts, so that a
 * session's clone takes only what the mirror lacks (`clone --reference`: the mirror's objects by
 * alternates, nothing copied). The token is passed per command (GitAuth, an environment header) and
 * never written: the mirror's config holds the URL without credentials. Refs are never pruned and
 * git never collects garbage in a mirror, so an object a session's clone borrows stays until the
 * whole mirror is evicted (evictMirrors).
 */

// No gc in a mirror, ever: it would prune objects that only a session's clone still needs.
const NO_GC = ["-c", "gc.auto=0", "-c", "maintenance.auto=false"];
const REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
const USED = "patchgate-used";

/** The mirror's directory for `url` (credentials already split off, see remote-url.ts). */
export function mirrorPath(root: string, url: string): string {
  return path.join(root, `${createHash("sha256").update(url).digest("hex").slice(0, 24)}.git`);
}

/** The mirror of `url`, created or fetched under its lock; returns its directory. */
export async function refreshMirror(settings: MirrorSettings, url: string, auth: GitAuth | undefined, signal?: AbortSignal): Promise<string> {
  const dir = mirrorPath(settings.root, url);
  await mkdir(settings.root, { recursive: true });
  await withMirrorLock(dir, signal, async () => {
    if (await stat(path.join(dir, "HEAD")).catch(() => null)) {
      await gitOk([...NO_GC, "fetch", "--quiet", "--no-write-fetch-head", "--", url, ...REFSPECS], { cwd: dir, auth, signal });
    } else {
      // Made beside and renamed into place: a mirror half-cloned by a killed process is never used.
      const tmp = `${dir}.tmp-${process.pid}`;
      await rm(tmp, { recursive: true, force: true });
      await gitOk([...NO_GC, "clone", "--quiet", "--bare", "--", url, tmp], { cwd: settings.root, auth, signal });
      await rm(dir, { recursive: true, force: true });
      await rename(tmp, dir);
    }
    await touchUsed(dir);
  });
  return dir;
}

async function touchUsed(dir: string): Promise<void> {
  const now = new Date();
  await writeFile(path.join(dir, USED), "").catch(() => undefined);
  await utimes(path.join(dir, USED), now, now).catch(() => undefined);
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name)).catch(() => null))?.size ?? 0;
  }
  return total;
}

/**
 * Removes mirrors unused for longer than maxAgeMs, then the least recently used until the rest fit
 * in maxBytes (`keep`, the mirror a session is about to use, always stays). Each is removed under its
 * lock, so no fetch or clone is reading it meanwhile. Returns the directories removed.
 */
export async function evictMirrors(settings: MirrorSettings, keep?: string, now = Date.now()): Promise<string[]> {
  const maxAge = settings.maxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS;
  const maxBytes = settings.maxBytes ?? DEFAULT_MIRROR_MAX_BYTES;
  const names = (await readdir(settings.root).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{24}\.git$/.test(n));
  const mirrors = await Promise.all(
    names.map(async (n) => {
      const dir = path.join(settings.root, n);
      const used = (await stat(path.join(dir, USED)).catch(() => null))?.mtimeMs ?? 0;
      return { dir, used, bytes: await sizeOf(dir) };
    }),
  );
  mirrors.sort((a, b) => a.used - b.used);
  let total = mirrors.reduce((s, m) => s + m.bytes, 0);
  const removed: string[] = [];
  for (const m of mirrors) {
    if (m.dir === keep || (now - m.used <= maxAge && total <= maxBytes)) continue;
    await withMirrorLock(m.dir, undefined, () => rm(m.dir, { recursive: true, force: true }));
    total -= m.bytes;
    removed.push(m.dir);
  }
  return removed;
}
