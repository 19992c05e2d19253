import { link, readFile, rm, writeFile } from "node:fs/promises";
import { GIT_NETWORK_TIMEOUT_MS } from "./git.js";
import { WorkspaceError } from "./workspace-error.js";

/**
 * One process at a time per mirror (fetch, first clone, eviction), across the processes of one host
 * (an app and its workers share the data directory): `<mirror>.lock` created exclusively, holding the
 * owner's pid. A lock whose owner is gone (killed mid-fetch) is taken over; a live owner is waited
 * for, at most as long as a fetch may take.
 */
export async function withMirrorLock<T>(mirror: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  const lock = `${mirror}.lock`;
  const deadline = Date.now() + GIT_NETWORK_TIMEOUT_MS;
  for (;;) {
    signal?.throwIfAborted();
    if (await take(lock)) break;
    const held = await readFile(lock, "utf8").catch(() => null);
    const owner = Number(held);
    // Read again just before removing: a lock that changed hands meanwhile is left alone.
    if (held !== null && !alive(owner) && (await readFile(lock, "utf8").catch(() => null)) === held) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new WorkspaceError("timeout", `the mirror ${mirror} stayed locked by process ${owner}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

/** The lock appears whole or not at all (a hard link of a file already holding the pid). */
async function take(lock: string): Promise<boolean> {
  const mine = `${lock}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(mine, String(process.pid));
  try {
    await link(mine, lock);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    await rm(mine, { force: true });
  }
}

/** Whether a process with this pid exists (a lock that cannot be read counts as a dead owner's). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
