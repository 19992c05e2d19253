import type { DiffInfo } from "../session/types.js";
import type { ChangedPath } from "./types.js";
import { gitOk } from "./git.js";

/**
 * Flags that make the patch byte-for-byte what `git apply` needs to rebuild the tree (DESIGN §2):
 * binary files included, full blob ids (abbreviations vary with repo size), fixed prefixes, no external or text-converting diff drivers, no colour.
 * Renames are detected explicitly (not left to diff.renames) so the output does not depend on config.
 */
const PATCH_FLAGS = ["--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/"];

/** Diff of the snapshot index named by `env.GIT_INDEX_FILE` against `base`. */
export async function diffSnapshot(root: string, base: string, env: { GIT_INDEX_FILE: string }, signal?: AbortSignal): Promise<DiffInfo> {
  const opts = { cwd: root, env, signal };
  const [patch, stat] = await Promise.all([
    gitOk(["diff", "--cached", "--binary", ...PATCH_FLAGS, base, "--"], opts),
    gitOk(["diff", "--cached", "--stat=120", ...PATCH_FLAGS, base, "--"], opts),
  ]);
  return { patch, stat, ...countsFromStat(stat) };
}

/**
 * The stat's last line, e.g. " 2 files changed, 3 insertions(+), 1 deletion(-)" (LC_ALL=C is set, so
 * the wording is fixed). Binary files count as changed with no lines.
 */
export function countsFromStat(stat: string): Pick<DiffInfo, "filesChanged" | "insertions" | "deletions"> {
  const summary = stat.trimEnd().split("\n").at(-1) ?? "";
  const num = (re: RegExp) => Number(re.exec(summary)?.[1] ?? 0);
  return {
    filesChanged: num(/(\d+) files? changed/),
    insertions: num(/(\d+) insertions?\(\+\)/),
    deletions: num(/(\d+) deletions?\(-\)/),
  };
}

/**
 * The paths of the snapshot index that differ from `base`, with their new mode. `-z` so that no name
 * is quoted or escaped, `--no-renames` so that a rename lists both of its paths.
 */
export async function changedPathsSnapshot(root: string, base: string, env: { GIT_INDEX_FILE: string }, signal?: AbortSignal): Promise<ChangedPath[]> {
  const out = await gitOk(["diff", "--cached", "--raw", "-z", "--no-renames", "--no-ext-diff", base, "--"], { cwd: root, env, signal });
  const fields = out.split("\0");
  const changes: ChangedPath[] = [];
  // Each entry is ":<old mode> <new mode> <old id> <new id> <status>" then the path.
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i].split(" ");
    changes.push({ path: fields[i + 1], mode: meta[1] });
  }
  return changes;
}
