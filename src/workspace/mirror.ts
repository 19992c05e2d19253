import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { gitOk } from "./git.js";
import { withMirrorLock } from "./mirror-lock.js";
import { gitLockFiles } from "./git-locks.js";
import type { GitAuth } from "./types.js";
import { tenantKey, type Tenant } from "../session/tenant.js";
import { DEFAULT_MIRROR_MAX_AGE_MS, DEFAULT_MIRROR_MAX_BYTES, type MirrorSettings } from "./mirror-settings.js";

/**
 * One bare mirror per tenant (installation id and repository id, never the URL: a name handed to
 * another repository must not find this one's objects) under the data directory, fetched when a
 * session starts, so that a session's clone fetches only what the mirror lacks. The clone copies
 * what it takes from the mirror and keeps no link to it (clone.ts), so a mirror is never seen from a
 * sandbox. The token is passed per command (GitAuth, an environment header) and never written: the
 * mirror's config holds the URL without credentials.
 */

// No gc in a mirror: a clone reading it while another session fetches must find every object it was promised.
const NO_GC = ["-c", "gc.auto=0", "-c", "maintenance.auto=false"];
const REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
const USED = "patchgate-used";
/** What a mirror's directory is called; anything else under the root is not a mirror of this layout. */
const MIRROR_NAME = /^i\d+-r\d+\.git$/;
/** Mirrors of the layout before tenants (named by a hash of the URL): removed at the next eviction. */
const UNTENANTED_NAME = /^[0-9a-f]{24}\.git$/;

/** The mirror's directory for `tenant`. */
export function mirrorPath(root: string, tenant: Tenant): string {
  return path.join(root, `${tenantKey(tenant)}.git`);
}

/** The mirror of `tenant`'s repository, at `url` now, created or fetched under its lock; returns its directory. */
export async function refreshMirror(settings: MirrorSettings, tenant: Tenant, url: string, auth: GitAuth | undefined, signal?: AbortSignal): Promise<string> {
  const dir = mirrorPath(settings.root, tenant);
  await mkdir(settings.root, { recursive: true });
  await withMirrorLock(dir, signal, async () => {
    if (await stat(path.join(dir, "HEAD")).catch(() => null)) {
      // Under the mirror's lock no other git process writes here: git's own locks left by a fetch
      // killed mid-write are stale, and would refuse every later fetch of those refs.
      for (const lock of await gitLockFiles(dir)) await rm(lock, { force: true });
      await gitOk([...NO_GC, "fetch", "--quiet", "--prune", "--no-write-fetch-head", "--", url, ...REFSPECS], { cwd: dir, auth, signal });
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
 * in maxBytes (`keep`, the mirror a session is about to use, always stays), and every mirror of the
 * layout before tenants. Each is removed under its lock, so no fetch is writing it meanwhile.
 * Returns the directories removed.
 */
export async function evictMirrors(settings: MirrorSettings, keep?: string, now = Date.now()): Promise<string[]> {
  const maxAge = settings.maxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS;
  const maxBytes = settings.maxBytes ?? DEFAULT_MIRROR_MAX_BYTES;
  const all = await readdir(settings.root).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const n of all.filter((n) => UNTENANTED_NAME.test(n))) {
    const dir = path.join(settings.root, n);
    await withMirrorLock(dir, undefined, () => rm(dir, { recursive: true, force: true }));
    removed.push(dir);
  }
  const names = all.filter((n) => MIRROR_NAME.test(n));
  const mirrors = await Promise.all(
    names.map(async (n) => {
      const dir = path.join(settings.root, n);
      const used = (await stat(path.join(dir, USED)).catch(() => null))?.mtimeMs ?? 0;
      return { dir, used, bytes: await sizeOf(dir) };
    }),
  );
  mirrors.sort((a, b) => a.used - b.used);
  let total = mirrors.reduce((s, m) => s + m.bytes, 0);
  for (const m of mirrors) {
    if (m.dir === keep || (now - m.used <= maxAge && total <= maxBytes)) continue;
    await withMirrorLock(m.dir, undefined, () => rm(m.dir, { recursive: true, force: true }));
    total -= m.bytes;
    removed.push(m.dir);
  }
  return removed;
}
