import { readdir } from "node:fs/promises";
import path from "node:path";

/** Loose object fan-out directories and packs: git never puts a lock file there, and they are most of a repository's entries. */
const OBJECT_STORE = /^objects\/(?:[0-9a-f]{2}|pack)$/;

/**
 * The `*.lock` files in a git directory (`.git` or a bare repository). Git takes a lock by creating
 * `<file>.lock` and renames it over the file when done; a git process killed in between leaves the
 * lock, and every later writer of that ref, index or config fails with "File exists". A lock is only
 * stale for a caller that knows no git process of its own can still hold it.
 */
export async function gitLockFiles(gitDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(gitDir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!OBJECT_STORE.test(child)) await walk(child);
      } else if (e.name.endsWith(".lock")) {
        found.push(path.join(gitDir, child));
      }
    }
  };
  await walk("");
  return found;
}
