import { readdir, readFile, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { parseKept, recordFile, stillTrue, TMP_SUFFIX } from "./credential-walk-store.js";

/** A record being written is renamed into place within moments: a temporary file this old lost its writer. */
const ABANDONED_MS = 10 * 60_000;

export interface WalkPrune {
  removed: number;
  kept: number;
}

const remove = (file: string) =>
  unlink(file).then(
    () => true,
    () => false,
  );

/**
 * Removes from `store` (the data directory's toolchain-walks/) what no process would take again: a
 * record that does not parse, lies where another directory's record belongs, or whose tree changed
 * or is gone (a toolchain updated or removed), and a temporary file whose writer died before its
 * rename. A record still true stays, and files this store never writes are left alone. A record
 * rewritten while it is judged may go with the old one's verdict: the next process then walks
 * again, which is only slower.
 */
export async function pruneKeptWalks(store: string, now = Date.now()): Promise<WalkPrune> {
  const names = await readdir(store).catch(() => [] as string[]);
  let removed = 0;
  let kept = 0;
  for (const name of names) {
    const file = path.join(store, name);
    if (name.endsWith(TMP_SUFFIX)) {
      const st = await stat(file).catch(() => null);
      if (st !== null && now - st.mtimeMs > ABANDONED_MS && (await remove(file))) removed++;
      continue;
    }
    if (!/^[0-9a-f]{64}\.json$/.test(name)) continue;
    const text = await readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    const record = parseKept(text);
    if (record !== null && recordFile(store, record.dir) === file && stillTrue(record, record.dir)) kept++;
    else if (await remove(file)) removed++;
  }
  return { removed, kept };
}
