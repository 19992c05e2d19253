import { execFileSync } from "node:child_process";

/**
 * What GitHub checks of a check-run annotation against the run's commit, done with real git on the
 * fake's bare repository: the path is a file of that commit and the lines exist in it.
 */
export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: string;
  message: string;
  title?: string;
  start_column?: number;
  end_column?: number;
  raw_details?: string;
}

function fileLines(bare: string, sha: string, path: string): number | null {
  try {
    const text = execFileSync("git", ["--git-dir", bare, "cat-file", "blob", `${sha}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  } catch {
    return null;
  }
}

/** The first problem with `annotations` on commit `sha`, or null when every one points at real lines. */
export function annotationProblem(bare: string | null, sha: string, annotations: FakeAnnotation[]): string | null {
  if (bare === null) return null;
  for (const a of annotations) {
    const lines = fileLines(bare, sha, a.path);
    if (lines === null) return `annotation path ${JSON.stringify(a.path)} is not a file of commit ${sha}`;
    if (a.start_line < 1 || a.end_line < a.start_line || a.end_line > lines) {
      return `annotation lines ${a.start_line}-${a.end_line} are outside ${a.path} (${lines} lines at ${sha.slice(0, 7)})`;
    }
  }
  return null;
}
