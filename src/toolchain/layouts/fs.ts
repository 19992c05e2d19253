import { constants as fsc } from "node:fs";
import { access, constants, open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { hostEnvironment } from "../../process/index.js";

/** Small, failure-tolerant reads of the host's layout: a missing piece is an absent toolchain, not an error. */

export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith(".")).sort();
}

export async function real(p: string): Promise<string | null> {
  return realpath(p).catch(() => null);
}

export async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() ?? false;
}

export async function isExecutable(p: string): Promise<boolean> {
  const st = await stat(p).catch(() => null);
  if (!st?.isFile()) return false;
  return access(p, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The first `maxBytes` of a regular file as text, or null. Opened non-blocking and checked after
 * opening: a FIFO or device where a manager keeps its settings never stalls resolution.
 */
export async function readHead(p: string, maxBytes = 64 * 1024): Promise<string | null> {
  const handle = await open(p, fsc.O_RDONLY | fsc.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    if (!(await handle.stat()).isFile()) return null;
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buf, 0, maxBytes, 0);
    return buf.subarray(0, bytesRead).toString("utf8");
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

export function homeOf(env: Readonly<Record<string, string | undefined>>): string | null {
  const home = env.HOME;
  return home && home.startsWith("/") ? home : null;
}

/** A program on `searchPath` (or a path, as given), executable by this process; null when there is none. */
export async function which(name: string, searchPath = hostEnvironment().PATH ?? ""): Promise<string | null> {
  if (name.includes("/")) return firstExecutable([path.resolve(name)]);
  return firstExecutable(
    searchPath
      .split(":")
      .filter((d) => path.isAbsolute(d))
      .map((d) => path.join(d, name)),
  );
}

/** The first of `paths` this process may execute, or null. */
export async function firstExecutable(paths: string[]): Promise<string | null> {
  for (const p of paths) {
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // Try the next.
    }
  }
  return null;
}
