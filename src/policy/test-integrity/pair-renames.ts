import { languageOf } from "./language.js";
import type { PathMatcher } from "./globs.js";
import type { IntegrityFile } from "./types.js";

/** Share of the deleted file's lines found in the added one above which the two are one file moved. */
const SAME_FILE = 0.6;

function lineSet(text: string): Set<string> {
  return new Set(
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== ""),
  );
}

function similarity(before: string, after: string): number {
  const old = lineSet(before);
  if (old.size === 0) return 0;
  const now = lineSet(after);
  let kept = 0;
  for (const line of old) if (now.has(line)) kept++;
  return kept / old.size;
}

/**
 * A deleted test file and an added one that holds most of its lines are one file renamed, whether or
 * not the caller saw the rename: without this a test moved inside the globs would read as one removed.
 * Each deleted file pairs with the most similar added file of the same language, once.
 */
export function pairRenames(files: readonly IntegrityFile[], isTestPath: PathMatcher): IntegrityFile[] {
  const deleted = files.filter((f) => f.after === null && f.before !== null && isTestPath(f.path));
  const added = files.filter((f) => f.before === null && f.after !== null && f.renamedFrom === undefined);
  const paired = new Map<IntegrityFile, IntegrityFile>();
  const used = new Set<IntegrityFile>();
  for (const gone of deleted) {
    let best: IntegrityFile | undefined;
    let bestScore = SAME_FILE;
    for (const candidate of added) {
      if (used.has(candidate) || languageOf(candidate.path) !== languageOf(gone.path)) continue;
      const score = similarity(gone.before ?? "", candidate.after ?? "");
      if (score >= bestScore) [best, bestScore] = [candidate, score];
    }
    if (best) {
      used.add(best);
      paired.set(gone, best);
    }
  }
  if (paired.size === 0) return [...files];
  const merged = new Map([...paired].map(([gone, now]) => [now, { path: now.path, before: gone.before, after: now.after, renamedFrom: gone.path }]));
  return files.filter((f) => !paired.has(f)).map((f) => merged.get(f) ?? f);
}
