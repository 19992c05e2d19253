import { testRegion, type ChangedFile } from "../changed-file.js";
import type { DetectContext, Detector } from "../detector.js";
import { countMatches, linesShowing } from "../diff-lines.js";
import { withoutComments, type TestLanguage } from "../language.js";
import type { IntegrityFinding, IntegrityFindingKind } from "../types.js";

/**
 * A row that counts a pattern before and after in each changed file of one language: a marker
 * (skip, focus, suppression) counted up, or an assertion counted down. Counting, not diffing, is what
 * lets code move: a test moved with its `it.skip(` is the same count.
 */
export interface CountRowSpec {
  id: string;
  kind: IntegrityFindingKind;
  ecosystem: string;
  looksAt: string;
  language: TestLanguage;
  pattern: RegExp;
  /** tests: the test code of test files; source: every file of the language. */
  scope: "tests" | "source";
  /** A marker in a comment does not run, so it is not counted; a suppression is a comment. */
  comments: "ignored" | "counted";
  /** up: more after than before is a finding (markers); down: fewer (assertions). */
  finding: "up" | "down";
  /** The message, given the file, the counts and the first matching changed line's match. */
  message: (path: string, before: number, after: number, example: string | null) => string;
}

export function countRow(spec: CountRowSpec): Detector {
  return {
    id: spec.id,
    kind: spec.kind,
    ecosystem: spec.ecosystem,
    looksAt: spec.looksAt,
    detect: (ctx) => ctx.files.flatMap((file) => judge(spec, ctx, file)),
  };
}

function inScope(spec: CountRowSpec, file: ChangedFile): boolean {
  if (file.language !== spec.language) return false;
  // Assertions go down when a file is removed or leaves the globs; the removal row reports that.
  if (spec.finding === "down") return file.testBefore && file.testAfter;
  return spec.scope === "source" || file.testAfter;
}

function judge(spec: CountRowSpec, ctx: DetectContext, file: ChangedFile): IntegrityFinding[] {
  if (!inScope(spec, file)) return [];
  const text = (side: "before" | "after"): string => {
    const raw = spec.scope === "tests" ? testRegion(file, side, ctx.isTestPath) : ((side === "before" ? file.before : file.after) ?? "");
    return spec.comments === "ignored" ? withoutComments(spec.language, raw) : raw;
  };
  const before = spec.scope === "tests" && !file.testBefore ? 0 : countMatches(text("before"), spec.pattern);
  const after = countMatches(text("after"), spec.pattern);
  if (spec.finding === "up" ? after <= before : after >= before) return [];
  const lines = linesShowing(file.before, file.after, spec.pattern);
  const sign = spec.finding === "up" ? "+" : "-";
  const example =
    lines
      .find((l) => l.startsWith(sign))
      ?.slice(1)
      .match(spec.pattern)?.[0] ?? null;
  return [{ kind: spec.kind, detector: spec.id, path: file.path, message: spec.message(file.path, before, after, example), lines }];
}
