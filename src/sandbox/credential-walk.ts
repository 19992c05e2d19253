import { lstat, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { runProcess } from "../process/index.js";
import { findStamp, keepWalk, keptWalk, nowNs, stampOf, type CredentialEntry, type TreeWalk } from "./credential-walk-store.js";

/**
 * Files and directories that hold credentials where tools look for configuration, by name, wherever
 * they sit in a bound toolchain directory: a global npmrc in a node prefix (`etc/npmrc`), cargo's
 * `credentials.toml` in a CARGO_HOME, a `.docker/config.json`, and the usual dotfiles of a HOME that
 * a toolchain was unpacked into. Each is masked: a file by an empty read-only one, a directory by an
 * empty read-only directory.
 */
const CREDENTIAL_NAMES = new Set([
  ".env",
  ".netrc",
  "_netrc",
  ".npmrc",
  "npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pypirc",
  "pip.conf",
  ".git-credentials",
  "credentials",
  "credentials.toml",
  ".dockercfg",
  ".ssh",
  ".aws",
  ".azure",
  ".docker",
  ".gnupg",
  ".kube",
  ".gem",
  ".m2",
  ".gradle",
  ".terraform.d",
  ".terraformrc",
  ".config",
]);

export type { CredentialEntry, TreeWalk } from "./credential-walk-store.js";

/**
 * A toolchain tree holds tens of thousands of files (a rust toolchain ~60,000), so each directory is
 * walked once per process, by `find` where the host has it (a walk in this process costs seconds of
 * its time there, and the first sandbox start of a session waits for it); with `store`, a walk kept
 * by an earlier process is taken instead while every directory it read is unchanged
 * (credential-walk-store.ts). The entries right below it, where a credential file usually lands
 * (`npm config set --global` writes `<prefix>/etc/npmrc`), are looked at again for every run.
 */
const walked = new Map<string, Promise<CredentialEntry[]>>();

/** Every credential-named entry under `dir`, at any depth, without following symlinks out of it. */
export async function credentialMasks(dir: string, store?: string): Promise<CredentialEntry[]> {
  let deep = walked.get(dir);
  if (deep === undefined) {
    deep = deepWalk(dir, store);
    walked.set(dir, deep);
  }
  const found = new Map((await deep).map((e) => [e.path, e]));
  for (const e of await shallow(dir)) found.set(e.path, e);
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

async function deepWalk(dir: string, store: string | undefined): Promise<CredentialEntry[]> {
  const kept = store === undefined ? null : await keptWalk(store, dir, kindOf);
  if (kept !== null) return kept;
  const startedAt = nowNs();
  const fresh = (await findWalk(dir)) ?? (await walk(dir));
  if (store !== undefined) await keepWalk(store, dir, fresh, startedAt);
  return fresh.entries;
}

/**
 * The same walk as `walk`, by find(1): names matched at any depth below `dir` (symlinks not
 * followed, `-P`), a matching directory not entered, every other directory printed with its stamp
 * (find stats a directory before it reads it). Null where find cannot run or did not finish its walk
 * (a signal), so the walk in this process answers instead. An unreadable directory makes find exit 1
 * after walking the rest, as `walk` skips it.
 */
export async function findWalk(dir: string): Promise<TreeWalk | null> {
  const root = stampOf(dir, "");
  if (root === null) return null;
  const names = [...CREDENTIAL_NAMES].flatMap((n, i) => (i === 0 ? ["-name", n] : ["-o", "-name", n]));
  const r = await runProcess({
    command: "find",
    args: ["-P", dir, "-mindepth", "1", "(", ...names, ")", "-prune", "-printf", "c %p\\0", "-o", "-type", "d", "-printf", "d %D %i %T@ %C@ %p\\0"],
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
  }).catch(() => null);
  if (r === null || (r.exitCode !== 0 && r.exitCode !== 1)) return null;
  const out: TreeWalk = { entries: [], dirs: [root] };
  for (const line of r.stdout.toString("utf8").split("\0").filter(Boolean)) {
    if (line.startsWith("d ")) {
      const stamp = findStamp(dir, line);
      // A folder whose stamp does not read leaves a walk that cannot be kept (credential-walk-store.ts).
      if (stamp === null) out.unstamped = true;
      else out.dirs.push(stamp);
      continue;
    }
    const p = line.slice(2);
    // find matched the name; the set is checked again so nothing else can come from its output.
    if (!line.startsWith("c ") || !CREDENTIAL_NAMES.has(path.basename(p)) || !p.startsWith(dir + path.sep)) continue;
    const kind = await kindOf(p);
    if (kind !== null) out.entries.push({ path: p, kind });
  }
  return out;
}

/** The walk in this process: where find cannot run. */
export async function walk(dir: string): Promise<TreeWalk> {
  const out: TreeWalk = { entries: [], dirs: [] };
  const pending = [dir];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    // Stamped before it is read: a change made while it is read moves the stamp past the kept one.
    const stamp = stampOf(next, path.relative(dir, next));
    const entries = await readdir(next, { withFileTypes: true }).catch(() => []);
    if (stamp !== null) out.dirs.push(stamp);
    for (const e of entries) {
      const p = path.join(next, e.name);
      if (CREDENTIAL_NAMES.has(e.name)) {
        const kind = await kindOf(p);
        // Masked whole: nothing below a credential directory is bound, so there is nothing to walk.
        if (kind !== null) out.entries.push({ path: p, kind });
      } else if (e.isDirectory()) pending.push(p);
    }
  }
  return out;
}

async function shallow(dir: string): Promise<CredentialEntry[]> {
  const out: CredentialEntry[] = [];
  for (const name of CREDENTIAL_NAMES) {
    for (const p of [path.join(dir, name), path.join(dir, "etc", name)]) {
      const kind = await kindOf(p);
      if (kind !== null) out.push({ path: p, kind });
    }
  }
  return out;
}

/**
 * What a mask over `p` must be. A symlink is judged by what it points to, since the mount lands on
 * its target; one that points nowhere shows nothing and needs no mask.
 */
async function kindOf(p: string): Promise<CredentialEntry["kind"] | null> {
  const link = await lstat(p).catch(() => null);
  if (link === null) return null;
  const st = link.isSymbolicLink() ? await stat(p).catch(() => null) : link;
  if (st === null) return null;
  return st.isDirectory() ? "dir" : "file";
}
