import { readdir } from "node:fs/promises";
import path from "node:path";
import { SANDBOX_HOME } from "./env-policy.js";
import { SANDBOX_CACHE } from "./session-cache.js";
import type { Mount } from "./toolchain-binding.js";

/**
 * What a run may write outside the workspace, by who chose it. A file a command leaves where a later
 * tool looks (`~/.npmrc`'s node-options, `~/.gitconfig`, go's env file, a build cache entry, cargo's
 * config) would run in a later, approved command, and the workspace's rollback never sees it. So:
 * - `setup`, the maintainer's setup step, is the only run that writes the session's cache (its
 *   HOME, the dependency and download caches): what it leaves is the state every later run starts from;
 * - `command`, every other run (the model's commands, the test and baseline runs), gets a HOME of its
 *   own, a copy of setup's made at its start, and the cache read-only; its build caches live in
 *   its /tmp; all of it is gone when it ends (one-shot: the sandbox's tmpfs goes; long-lived: the
 *   supervisor empties /tmp after every command);
 * - `read-only`, a command the policy judged a reader: every bind read-only, HOME included.
 */
export type RunAccess = "setup" | "command" | "read-only";

/** Setup's HOME inside the sandbox; every other run's HOME starts as a copy of it. */
const SETUP_HOME = `${SANDBOX_CACHE}/home`;

/** A command's own build caches: per command, like the rest of /tmp. */
const RUN_CACHE = "/tmp/cache";

/** Where each tool keeps its state, for a run of a session that has a cache directory. */
export function stateEnv(access: RunAccess): Record<string, string> {
  const c = SANDBOX_CACHE;
  // Caches a tool must write to work at all (go refuses a read-only GOCACHE) are the run's own, in
  // its /tmp: writable for a reader too, whose HOME is read-only.
  const writable =
    access === "setup"
      ? { HOME: SETUP_HOME, XDG_CACHE_HOME: `${c}/xdg`, GOCACHE: `${c}/go-build` }
      : { HOME: SANDBOX_HOME, XDG_CACHE_HOME: RUN_CACHE, GOCACHE: `${RUN_CACHE}/go-build` };
  return {
    ...writable,
    // CARGO_HOME also holds cargo's config and credentials: the host's are never read this way.
    CARGO_HOME: `${c}/cargo`,
    GOPATH: `${c}/go`,
    GOMODCACHE: `${c}/go/pkg/mod`,
    PIP_CACHE_DIR: `${c}/pip`,
    npm_config_cache: `${c}/npm`,
    YARN_CACHE_FOLDER: `${c}/yarn`,
  };
}

/**
 * The session's cache and HOME as mounts: the cache writable for setup alone; a reader's HOME is
 * setup's, read-only (or an empty read-only directory when the session has no cache).
 */
export function stateMounts(access: RunAccess, cacheDir: string | undefined): Mount[] {
  const mounts: Mount[] = [];
  if (cacheDir) mounts.push({ kind: "bind", source: cacheDir, path: SANDBOX_CACHE, readOnly: access !== "setup" });
  if (access === "read-only")
    mounts.push(cacheDir ? { kind: "bind", source: `${cacheDir}/home`, path: SANDBOX_HOME, readOnly: true } : { kind: "mask-dir", path: SANDBOX_HOME });
  return mounts;
}

// Run by the sandbox's /bin/sh before the command: `$@` is the command's argv, unchanged.
const SEED_SCRIPT = `cp -a ${SETUP_HOME}/. ${SANDBOX_HOME}/ || { echo "patchgate-sandbox: cannot copy setup's HOME into this command's HOME" >&2; exit 125; }; exec "$@"`;

/**
 * A `command` run starts from a copy of what setup left in its HOME; when setup left nothing (or
 * there is no cache), the command starts as it is, with no copy to make.
 */
export async function withSetupHome<R extends { access: RunAccess; argv: string[] }>(run: R, cacheDir: string | undefined): Promise<R> {
  if (run.access !== "command" || cacheDir === undefined) return run;
  const entries = await readdir(path.join(cacheDir, "home")).catch(() => []);
  return entries.length === 0 ? run : { ...run, argv: ["/bin/sh", "-c", SEED_SCRIPT, "patchgate-home", ...run.argv] };
}
