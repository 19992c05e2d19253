import { parsePatch } from "diff";

/**
 * The files of a session's patch (git's unified diff with `a/` and `b/` prefixes, see
 * workspace/diff.ts) with their line counts and the new-side number of every added line: what the
 * Change section lists and what provenance annotations point at.
 */
interface AddedLine {
  /** 1-based line number in the new file. */
  line: number;
  text: string;
}

export interface FileChange {
  /** Path in the new tree; for a deleted file, the path it had. */
  path: string;
  status: "added" | "deleted" | "modified" | "renamed";
  /** Path before a rename. */
  from?: string;
  added: number;
  deleted: number;
  /** Binary files have no lines. */
  binary: boolean;
  addedLines: AddedLine[];
}

const strip = (name: string | undefined, prefix: string): string | null =>
  name === undefined || name === "/dev/null" ? null : name.startsWith(prefix) ? name.slice(prefix.length) : name;

export function fileChanges(patch: string): FileChange[] {
  if (patch.trim() === "") return [];
  // parsePatch keeps git's sections in order; the raw section says whether the file is binary.
  const sections = patch.split(/^(?=diff --git )/m).filter((s) => s.startsWith("diff --git "));
  return parsePatch(patch).map((f, i) => {
    const oldPath = strip(f.oldFileName, "a/");
    const newPath = strip(f.newFileName, "b/");
    const addedLines: AddedLine[] = [];
    let deleted = 0;
    for (const h of f.hunks) {
      let line = h.newStart;
      for (const l of h.lines) {
        if (l.startsWith("+")) addedLines.push({ line: line++, text: l.slice(1) });
        else if (l.startsWith("-")) deleted += 1;
        else if (l.startsWith(" ")) line += 1;
      }
    }
    const section = sections[i] ?? "";
    // A binary file has no ---/+++ lines: git's header says whether it is new or gone.
    const status =
      oldPath === null || /^new file mode /m.test(section)
        ? "added"
        : newPath === null || /^deleted file mode /m.test(section)
          ? "deleted"
          : oldPath !== newPath
            ? "renamed"
            : "modified";
    return {
      path: newPath ?? oldPath ?? "",
      status,
      ...(status === "renamed" && oldPath ? { from: oldPath } : {}),
      added: addedLines.length,
      deleted,
      binary: /^(?:GIT binary patch|Binary files )/m.test(section),
      addedLines,
    };
  });
}
