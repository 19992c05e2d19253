import { chown, lstat, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runProcess } from "../process/index.js";

/** The nodes bwrap's `--dev` binds from the host, with their device numbers. */
const NODES: readonly (readonly [name: string, major: number, minor: number])[] = [
  ["null", 1, 3],
  ["zero", 1, 5],
  ["full", 1, 7],
  ["random", 1, 8],
  ["urandom", 1, 9],
  ["tty", 5, 0],
];

/** Owner of the private nodes: an id the sandbox's user namespace does not map (it maps only uid 0). */
const UNMAPPED_ID = 65534;

let made: string | null = null;

/**
 * When Patchgate runs as root, uid 0 inside the sandbox is uid 0 on the host, and bwrap's `--dev`
 * binds the host's own /dev/null, /dev/zero… into it: a command could chmod or chown them (it owns
 * them, no capability needed), and every process on the host would see the change. Instead the
 * sandbox gets private nodes with the same device numbers, owned by an id its namespace does not map,
 * so it can read and write them and change nothing about them. Made once per process (again if a tmp
 * cleaner removed them); null when not root, where the host's nodes already belong to nobody inside.
 */
export async function privateDeviceNodes(uid = process.getuid?.() ?? -1): Promise<string | null> {
  if (uid !== 0) return null;
  if (made !== null && (await intact(made))) return made;
  const dir = await mkdtemp(path.join(tmpdir(), "patchgate-dev-"));
  // All at once: each is a process of its own, and the first sandbox of a process waits for them.
  await Promise.all(
    NODES.map(async ([name, major, minor]) => {
      const node = path.join(dir, name);
      const r = await runProcess({ command: "mknod", args: ["-m", "666", node, "c", String(major), String(minor)], env: { PATH: "/usr/bin:/bin" } });
      if (r.exitCode !== 0) throw new Error(`mknod ${node} failed: ${r.stderr.toString().trim()}`);
      await chown(node, UNMAPPED_ID, UNMAPPED_ID);
    }),
  );
  made = dir;
  return dir;
}

async function intact(dir: string): Promise<boolean> {
  try {
    for (const [name] of NODES) {
      const s = await lstat(path.join(dir, name));
      if (!s.isCharacterDevice() || s.uid !== UNMAPPED_ID || (s.mode & 0o777) !== 0o666) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** bwrap arguments that put the private nodes over the ones `--dev` bound (after `--dev /dev`). */
export function deviceNodeArgs(dir: string | null | undefined): string[] {
  if (!dir) return [];
  return NODES.flatMap(([name]) => ["--dev-bind", path.join(dir, name), `/dev/${name}`]);
}
