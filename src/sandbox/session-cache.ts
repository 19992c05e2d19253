import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";

/**
 * One cache directory per session on the host, bound read-write at SANDBOX_CACHE into every run of
 * that session (setup, tests, commands), so what `cargo fetch`, `go mod download` or `pip download`
 * put there is still there for the test run. Tools are pointed at it by environment, and HOME is its
 * `home/` (what `pip install --user`, a `~/.npmrc`-less npm or a tool's dot-directory leaves for the
 * next run). Never shared between sessions, never published, never the host's HOME.
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

/** Where each tool keeps its cache when told; set only for runs that have the session's cache. */
export function cacheEnv(): Record<string, string> {
  const c = SANDBOX_CACHE;
  return {
    HOME: `${c}/home`,
    XDG_CACHE_HOME: `${c}/xdg`,
    // CARGO_HOME also holds cargo's config and credentials: the host's are never read this way.
    CARGO_HOME: `${c}/cargo`,
    GOPATH: `${c}/go`,
    GOMODCACHE: `${c}/go/pkg/mod`,
    GOCACHE: `${c}/go-build`,
    PIP_CACHE_DIR: `${c}/pip`,
    npm_config_cache: `${c}/npm`,
    YARN_CACHE_FOLDER: `${c}/yarn`,
  };
}
