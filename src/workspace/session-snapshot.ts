import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DiffListing } from "./diff.js";

/**
 * What a workspace keeps between operations, per (clone, base): the indexes that are updated rather
 * than rebuilt, and results derived from a tree id (a tree id names its content, so those never go
 * stale). The indexes live outside the clone, in a private temporary directory: the sandbox can write
 * anywhere in the clone, `.git` included, and must not reach what decides the published tree.
 * Operations on one state run one at a time (`serial`): two git processes must not share an index.
 */
export class SnapshotState {
  readonly dir: string;
  /** The publish index (publish-index.ts) and the fingerprints of what it holds, or null before its first use. */
  publish: { context: string; byPath: Map<string, string> } | null = null;
  /** The snapshot index's seed (snapshot-index.ts) exists. */
  seeded = false;
  /** When (ms) the seed's deferred stat refresh may run (snapshot-index.ts), or null once it has. */
  seedRefreshAt: number | null = null;
  /** Published trees by full fingerprint key; their diff listings by tree and context. */
  readonly trees = new Bounded<string, string>(32);
  readonly listings = new Bounded<string, DiffListing>(8);
  /** Paths known to be in the base tree or not (an immutable fact), learnt from diff listings. */
  readonly inBase = new Map<string, boolean>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.dir = mkdtempSync(path.join(tmpdir(), "patchgate-snapshot-"));
  }

  get publishIndex(): string {
    return path.join(this.dir, "publish-index");
  }

  get seedIndex(): string {
    return path.join(this.dir, "seed-index");
  }

  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    void this.queue.finally(() => rmSync(this.dir, { recursive: true, force: true }));
  }
}

/** A map that forgets its oldest entry beyond `max`. */
export class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(k: K): V | undefined {
    return this.map.get(k);
  }
  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
}

const MAX_STATES = 64;
const states = new Map<string, SnapshotState>();

/**
 * Which clone is at `root`: a clone removed and made again at the same path (a rebuilt workspace, a
 * worker taking a session back) has other objects, so an index built on the old one names blobs the
 * new one lacks. The inode alone is not enough (a freed one is reused at once); with its birth time
 * it is.
 */
function cloneIdentity(root: string): string {
  try {
    const st = statSync(path.join(root, ".git"), { bigint: true });
    return `${st.ino}:${st.birthtimeNs}`;
  } catch {
    return "none";
  }
}

/** The state of the clone at `root` on `base`; the least recently used beyond MAX_STATES is dropped. */
export function snapshotState(root: string, base: string): SnapshotState {
  const key = `${root}\0${base}\0${cloneIdentity(root)}`;
  let state = states.get(key);
  if (state) states.delete(key);
  else state = new SnapshotState();
  states.set(key, state);
  if (states.size > MAX_STATES) {
    const [oldest, dropped] = states.entries().next().value as [string, SnapshotState];
    states.delete(oldest);
    dropped.dispose();
  }
  return state;
}

process.once("exit", () => {
  for (const s of states.values()) rmSync(s.dir, { recursive: true, force: true });
});
