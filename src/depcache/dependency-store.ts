import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { copyContents, copyTree, insideRoot, linkTree, treeBytes } from "./copy-tree.js";
import { trackBesideCommit } from "./beside-commits.js";

/**
 * Installed dependencies across sessions, on the host: `<root>/entries/<key>/` holds what one
 * successful setup left in the workspace (`tree/`, e.g. node_modules, .venv, target) and in the
 * session's cache directory (`cache/`: Go's module cache, cargo's registry), with `meta.json`.
 * An entry is written under `<root>/tmp/` and renamed into place whole, so a reader never sees half
 * of one and a crash leaves only a staging directory, removed later. Restores copy (copy-tree.ts):
 * the cache is never shared writable with a session. A store takes its contents at once (`take`) and
 * may finish beside the session (`commitBeside`). Evicted least recently used first, by size.
 */
export interface EntryMeta {
  key: string;
  repo: string;
  command: string;
  /** Workspace paths, as git names them (`node_modules`, `packages/a/node_modules`). */
  paths: string[];
  bytes: number;
  storedAt: string;
  usedAt: string;
}

/** What a session's setup is given (ToolContext.dependencyCache). */
export interface DependencyCacheHandle {
  store: DependencyStore;
  /** Host path of the session's cache directory (sandbox/session-cache.ts), when it has one. */
  sessionCache?: string;
}

/** What a store is told of a new entry. */
type NewEntry = Pick<EntryMeta, "key" | "repo" | "command" | "paths">;

/** What setup made, staged by `take`: `commit` puts it in place as an entry (and removes the staging). */
export interface TakenEntry {
  /** The workspace the entry was taken from: until the commit ends, it may hold links to its files. */
  workspace: string;
  commit(): Promise<EntryMeta>;
}

const KEY = /^[0-9a-f]{40}$/;
// Download caches whose contents setup has already installed into the workspace: copying them again
// would double every restore for nothing.
const DOWNLOAD_ONLY = new Set(["npm", "yarn", "pip"]);
const STALE_STAGING_MS = 60 * 60 * 1000;

export class DependencyStore {
  constructor(
    readonly root: string,
    readonly maxBytes: number,
  ) {}

  private readonly pending = new Set<Promise<void>>();

  private dir(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a dependency cache key: ${key}`);
    return path.join(this.root, "entries", key);
  }

  async lookup(key: string): Promise<EntryMeta | null> {
    const text = await readFile(path.join(this.dir(key), "meta.json"), "utf8").catch(() => null);
    return text === null ? null : (JSON.parse(text) as EntryMeta);
  }

  /** Puts the entry's paths into `workspace` (replacing what is there) and its cache into `sessionCache`; null on a miss. */
  async restore(key: string, workspace: string, sessionCache: string | undefined): Promise<EntryMeta | null> {
    const meta = await this.lookup(key);
    if (meta === null) return null;
    const dir = this.dir(key);
    try {
      for (const rel of meta.paths) {
        if (!(await insideRoot(workspace, rel))) throw new Error(`${rel} leaves the workspace`);
        await rm(path.join(workspace, rel), { recursive: true, force: true });
        await copyTree(path.join(dir, "tree", rel), path.join(workspace, rel));
      }
      if (sessionCache && (await exists(path.join(dir, "cache")))) await copyContents(path.join(dir, "cache"), sessionCache);
    } catch (e) {
      // Half a restore is worse than none: setup then runs as if there were no entry.
      for (const rel of meta.paths) if (await insideRoot(workspace, rel)) await rm(path.join(workspace, rel), { recursive: true, force: true });
      throw e;
    }
    await writeFile(path.join(dir, "meta.json"), JSON.stringify({ ...meta, usedAt: new Date().toISOString() }));
    return meta;
  }

  /** Copies `paths` of `workspace` and the session's cache into a new entry, then evicts down to maxBytes. */
  async store(entry: NewEntry, workspace: string, sessionCache: string | undefined): Promise<EntryMeta> {
    return (await this.take(entry, workspace, sessionCache, { linkWorkspace: false })).commit();
  }

  /**
   * Takes what `paths` of `workspace` and the session's cache hold now into a staging directory: what
   * the entry will hold is fixed when this returns, before any later run or call can change it.
   * `linkWorkspace` links the workspace's files instead of copying them (copy-tree.ts `linkTree`), so
   * no file's bytes are read here; `commit` then copies the linked files into files of the entry's
   * own. The caller must know that until the commit has ended nothing writes into a workspace file,
   * only replaces it (the session's sandbox copies its runs' writes back by rename, and the file tools
   * replace a file with another link), or such a write would reach the entry. The session's cache is
   * always copied here: a setup run again would write into it directly.
   */
  async take(entry: NewEntry, workspace: string, sessionCache: string | undefined, how: { linkWorkspace: boolean }): Promise<TakenEntry> {
    this.dir(entry.key);
    const staging = await this.staging();
    try {
      for (const rel of entry.paths) await (how.linkWorkspace ? linkTree : copyTree)(path.join(workspace, rel), path.join(staging, "tree", rel));
      for (const name of sessionCache ? await readdir(sessionCache) : []) {
        if (!DOWNLOAD_ONLY.has(name)) await copyTree(path.join(sessionCache!, name), path.join(staging, "cache", name));
      }
    } catch (e) {
      await rm(staging, { recursive: true, force: true });
      throw e;
    }
    return { workspace, commit: () => this.commit(entry, staging, how.linkWorkspace) };
  }

  /**
   * Runs `taken.commit()` beside the caller, who goes on at once; `settled` waits for every such
   * commit of this store, besideCommitsSettled for those of the process. A commit that fails leaves
   * no entry, as a crash during it does.
   */
  commitBeside(taken: TakenEntry): void {
    const done: Promise<void> = taken.commit().then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(done);
    trackBesideCommit(done, taken.workspace);
    void done.finally(() => this.pending.delete(done));
  }

  /** Resolves once every commit started by `commitBeside` has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  // The entry's size is counted here, off the caller's path, and meta.json is written before the
  // rename: an entry in place is always whole. Linked files are copied first, so that no entry shares
  // a file with a workspace once its commit has ended.
  private async commit(entry: NewEntry, taken: string, linked: boolean): Promise<EntryMeta> {
    const target = this.dir(entry.key);
    const staging = linked ? await this.staging() : taken;
    try {
      if (linked) {
        await copyContents(path.join(taken, "tree"), path.join(staging, "tree"));
        if (await exists(path.join(taken, "cache"))) await rename(path.join(taken, "cache"), path.join(staging, "cache"));
        await rm(taken, { recursive: true, force: true });
      }
      const now = new Date().toISOString();
      const meta: EntryMeta = { ...entry, bytes: await treeBytes(staging), storedAt: now, usedAt: now };
      await writeFile(path.join(staging, "meta.json"), JSON.stringify(meta));
      await mkdir(path.dirname(target), { recursive: true });
      // Another session may have stored the same key meanwhile: theirs stands, ours goes.
      await rename(staging, target).catch(() => undefined);
      await this.evict();
      return meta;
    } finally {
      await rm(taken, { recursive: true, force: true });
      await rm(staging, { recursive: true, force: true });
    }
  }

  private async staging(): Promise<string> {
    const dir = path.join(this.root, "tmp", randomBytes(8).toString("hex"));
    await mkdir(path.join(dir, "tree"), { recursive: true });
    return dir;
  }

  async entries(): Promise<EntryMeta[]> {
    const keys = (await readdir(path.join(this.root, "entries")).catch(() => [] as string[])).filter((k) => KEY.test(k));
    const metas = await Promise.all(keys.map((k) => this.lookup(k).catch(() => null)));
    return metas.filter((m): m is EntryMeta => m !== null);
  }

  /** Removes least recently used entries until the rest fit in maxBytes, and staging left by a crash; returns the evicted keys. */
  async evict(): Promise<string[]> {
    const evicted: string[] = [];
    const byUse = (await this.entries()).sort((a, b) => b.usedAt.localeCompare(a.usedAt));
    let total = 0;
    for (const meta of byUse) {
      total += meta.bytes;
      if (total <= this.maxBytes) continue;
      await this.remove(meta.key);
      evicted.push(meta.key);
    }
    for (const name of await readdir(path.join(this.root, "tmp")).catch(() => [] as string[])) {
      const st = await stat(path.join(this.root, "tmp", name)).catch(() => null);
      if (st && Date.now() - st.mtimeMs > STALE_STAGING_MS) await rm(path.join(this.root, "tmp", name), { recursive: true, force: true });
    }
    return evicted;
  }

  // Renamed away first, so a concurrent lookup sees the entry whole or not at all.
  private async remove(key: string): Promise<void> {
    const trash = path.join(this.root, "tmp", `evicted-${randomBytes(8).toString("hex")}`);
    await mkdir(path.dirname(trash), { recursive: true });
    if (
      await rename(this.dir(key), trash).then(
        () => true,
        () => false,
      )
    )
      await rm(trash, { recursive: true, force: true });
  }
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}
