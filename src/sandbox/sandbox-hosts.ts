import { access, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** The sandbox's uts name; resolvable too, since some test runners look their own host name up. */
export const SANDBOX_HOSTNAME = "patchgate-sandbox";

/**
 * The sandbox's /etc/hosts, in every run, networked or not. Without one, `localhost` does not
 * resolve (vitest dies at start with EAI_AGAIN); the host's own file is never shown, since it may
 * name internal machines. Both names point at the sandbox's private loopback.
 */
export const SANDBOX_HOSTS = `127.0.0.1 localhost\n::1 localhost\n127.0.1.1 ${SANDBOX_HOSTNAME}\n`;

let written: string | null = null;

/**
 * A host path holding SANDBOX_HOSTS, for bwrap to bind read-only. Written once per process into a
 * private directory, and again if something (a tmp cleaner) removed it since.
 */
export async function sandboxHostsFile(): Promise<string> {
  if (
    written !== null &&
    (await access(written).then(
      () => true,
      () => false,
    ))
  )
    return written;
  const file = path.join(await mkdtemp(path.join(tmpdir(), "patchgate-etc-")), "hosts");
  await writeFile(file, SANDBOX_HOSTS, { mode: 0o644 });
  written = file;
  return file;
}
