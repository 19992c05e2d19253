import { chmod, lstat, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SANDBOX_CACHE } from "./session-cache.js";
import type { Mount } from "./toolchain-binding.js";
import type { SessionExtras } from "./types.js";

/**
 * Files that hold credentials where tools look for configuration, relative to a toolchain's own
 * directory: a global npmrc in a node prefix (`npm config set --global`), pip's site config, and the
 * usual dotfiles when a toolchain was unpacked into a directory that also holds them.
 */
const CREDENTIAL_FILES = [".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".ssh", ".aws", ".docker", ".gnupg", "etc/npmrc", "pip.conf"];

/** The session's toolchain directories read-only, the credential files inside them masked, and its cache. */
export async function sessionMounts(extras: SessionExtras | undefined): Promise<Mount[]> {
  if (!extras) return [];
  const mounts: Mount[] = [];
  for (const dir of extras.binds) {
    mounts.push({ kind: "ro-bind", path: dir });
    for (const rel of CREDENTIAL_FILES) {
      const p = path.join(dir, rel);
      const st = await lstat(p).catch(() => null);
      if (st?.isDirectory()) mounts.push({ kind: "mask-dir", path: p });
      else if (st) mounts.push({ kind: "bind", source: await emptyFile(), path: p, readOnly: true });
    }
  }
  if (extras.cacheDir) mounts.push({ kind: "bind", source: extras.cacheDir, path: SANDBOX_CACHE });
  return mounts;
}

// /dev/null cannot stand in: binds are mounted nodev, so a device node there cannot be opened at all,
// and a tool reading its global config would fail instead of finding it empty.
let empty: Promise<string> | null = null;
function emptyFile(): Promise<string> {
  empty ??= (async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "patchgate-empty-")), "empty");
    await writeFile(file, "");
    await chmod(file, 0o444);
    return file;
  })();
  return empty;
}
