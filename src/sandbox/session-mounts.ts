import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { credentialMasks } from "./credential-walk.js";
import { stateMounts, type RunAccess } from "./run-state.js";
import type { Mount } from "./toolchain-binding.js";
import type { SessionExtras } from "./types.js";

/**
 * The session's toolchain directories read-only with every credential file inside them masked, at
 * any depth (credential-walk.ts), then its cache and HOME as the run's access allows (run-state.ts).
 */
export async function sessionMounts(extras: SessionExtras | undefined, access: RunAccess): Promise<Mount[]> {
  const mounts: Mount[] = [];
  for (const dir of extras?.binds ?? []) {
    mounts.push({ kind: "ro-bind", path: dir });
    for (const found of await credentialMasks(dir, extras?.walkStore)) {
      mounts.push(
        found.kind === "dir" ? { kind: "mask-dir", path: found.path } : { kind: "bind", source: await emptyFile(), path: found.path, readOnly: true },
      );
    }
  }
  return [...mounts, ...stateMounts(access, extras?.cacheDir)];
}

/**
 * Starts the credential walks of a session's toolchain directories (SessionExtras.binds) now, without waiting for them:
 * each is made once per process, and the first run's layout then finds it done or under way.
 */
export function walkToolchainsAhead(extras: SessionExtras): void {
  for (const dir of extras.binds) void credentialMasks(dir, extras.walkStore).catch(() => undefined);
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
