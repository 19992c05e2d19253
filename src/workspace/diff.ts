import type { DiffInfo } from "../session/types.js";
import type { ChangedPath } from "./types.js";

/**
 * Flags that make the patch byte-for-byte what `git apply` needs to rebuild the tree (DESIGN §2):
 * binary files included, full blob ids (abbreviations vary with repo size), fixed prefixes, no external or text-converting diff drivers, no colour.
 * Renames are detected explicitly (not left to diff.renames) so the output does not depend on config.
 */
const PATCH_FLAGS = ["--full-index", "--no-color", "--no-ext-diff", "--no-textconv", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/"];

/** What one `git diff --raw -z --stat --patch` says: the diff, and every path it changes. */
export interface DiffListing {
  diff: DiffInfo;
  changes: ChangedPath[];
  /** For each changed path, whether the base has it (a modification or deletion, not an addition). */
  inBase: Map<string, boolean>;
}

/** The arguments of that one process; the patch and stat are byte for byte those of separate runs. */
export const LISTING_FLAGS = ["--raw", "-z", "--binary", "--stat=120", "--patch", ...PATCH_FLAGS];

/**
 * Its output: raw records (":<old mode> <new mode> <old id> <new id> <status>", then one path, or two
 * for a rename), the stat, a NUL, the patch (which has none: a file with a NUL is a binary patch).
 * Changes are listed as `--no-renames` would: a rename is its old path deleted and its new path added,
 * in byte order of the paths.
 */
export function parseListing(out: string): DiffListing {
  const fields = out.split("\0");
  const changes: ChangedPath[] = [];
  const inBase = new Map<string, boolean>();
  let i = 0;
  for (; i < fields.length && fields[i].startsWith(":");) {
    const [oldMode, newMode, , , status] = fields[i].slice(1).split(" ");
    if (/^[RC]/.test(status)) {
      const [from, to] = [fields[i + 1], fields[i + 2]];
      if (status.startsWith("R")) changes.push({ path: from, mode: "000000" });
      changes.push({ path: to, mode: newMode });
      inBase.set(from, true).set(to, false);
      i += 3;
    } else {
      changes.push({ path: fields[i + 1], mode: newMode });
      inBase.set(fields[i + 1], oldMode !== "000000");
      i += 2;
    }
  }
  const rest = fields.slice(i).join("\0");
  const cut = rest.indexOf("\0");
  const stat = cut < 0 ? rest : rest.slice(0, cut);
  const patch = cut < 0 ? "" : rest.slice(cut + 1);
  changes.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  return { diff: { patch, stat, ...countsFromStat(stat) }, changes, inBase };
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
