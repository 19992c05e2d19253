import { existsSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { dirname } from "node:path";

/** Bytes free to an unprivileged writer on the filesystem holding `dir`. */
export type FreeSpaceReader = (dir: string) => Promise<number>;

/** Below this a new session's clone, dependency install and test run could fill the disk mid-run. */
export const DEFAULT_MIN_FREE_BYTES = 2 * 2 ** 30;

export type DiskVerdict = { ok: true } | { ok: false; freeBytes: number; minBytes: number };

/** Pure: whether a session may start with `freeBytes` free when `minBytes` must stay free (0: no guard). */
export function diskVerdict(freeBytes: number, minBytes: number): DiskVerdict {
  return minBytes <= 0 || freeBytes >= minBytes ? { ok: true } : { ok: false, freeBytes, minBytes };
}

const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/**
 * What the issue hears when the guard refuses. Amounts and the setting's name only: no path, host
 * or mount is named, since the comment is public and they help no maintainer.
 */
export function diskLowText(v: Extract<DiskVerdict, { ok: false }>): string {
  return [
    `⛔ Patchgate did not start a session: the disk it works on has ${gib(v.freeBytes)} free, less than the ${gib(v.minBytes)} it keeps free (\`PATCHGATE_MIN_FREE_DISK_GB\`), so a session could fail half-way for lack of space.`,
    "",
    "Sessions already running go on. Once the operator has freed space, ask again (for example `/agent fix this`).",
  ].join("\n");
}

/** statfs of `dir`, or of its nearest existing parent (the workspaces directory may not exist yet). */
export const statfsFree: FreeSpaceReader = async (dir) => {
  let at = dir;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  const s = await statfs(at);
  return s.bavail * s.bsize;
};

/**
 * The guard before a new session: a reader that fails (an odd filesystem) lets the session start —
 * refusing every session because free space cannot be read would be worse than the risk it guards.
 */
export async function checkDisk(
  dir: string,
  minBytes: number,
  read: FreeSpaceReader = statfsFree,
  log: (line: string) => void = () => undefined,
): Promise<DiskVerdict> {
  if (minBytes <= 0) return { ok: true };
  try {
    return diskVerdict(await read(dir), minBytes);
  } catch (e) {
    log(`disk guard: free space not readable (${e instanceof Error ? e.message : String(e)}); the session starts`);
    return { ok: true };
  }
}
