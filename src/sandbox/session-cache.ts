import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";

/**
 * One cache directory per session on the host, bound at SANDBOX_CACHE into every run of that session:
 * writable for the setup step alone, read-only for every other run (run-state.ts), so what
 * `cargo fetch`, `go mod download` or `pip install --user` put there during setup is there for the
 * test run, and nothing a later command writes is there for the one after it. Tools are pointed at it
 * by environment; setup's HOME is its `home/`. Never shared between sessions, never published, never
 * the host's HOME.
 */
export const SANDBOX_CACHE = "/cache";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** `<root>/<sessionId>`, created on first use; its realpath, so the bind names the real directory. */
export async function sessionCacheDir(root: string, sessionId: string): Promise<string> {
  if (!path.isAbsolute(root)) throw new Error(`cache root must be absolute: ${root}`);
  if (!SESSION_ID.test(sessionId)) throw new Error(`not a session id: ${JSON.stringify(sessionId)}`);
  const dir = path.join(root, sessionId);
  await mkdir(path.join(dir, "home"), { recursive: true, mode: 0o700 });
  return realpath(dir);
}
