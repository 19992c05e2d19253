import type { DetectContext, Detector } from "../detector.js";
import { MAX_SHOWN_LINES } from "../diff-lines.js";
import { basename } from "../config-text.js";
import type { IntegrityFinding, IntegrityFindingKind } from "../types.js";

/** What a configuration row reports about one file: its message and the lines that show it. */
export interface ConfigChange {
  message: string;
  lines: readonly string[];
}

export interface ConfigRowSpec {
  id: string;
  kind: IntegrityFindingKind;
  ecosystem: string;
  looksAt: string;
  /** The file names (not paths) this row reads, e.g. /^pyproject\.toml$/. */
  names: RegExp;
  /** Compare the two sides (null = absent) and name what was relaxed. */
  judge: (before: string | null, after: string | null, path: string) => ConfigChange[];
}

/** A row that reads configuration files by name, wherever they are (a monorepo has many). */
export function configRow(spec: ConfigRowSpec): Detector {
  return {
    id: spec.id,
    kind: spec.kind,
    ecosystem: spec.ecosystem,
    looksAt: spec.looksAt,
    detect: (ctx: DetectContext) =>
      ctx.files.flatMap((file): IntegrityFinding[] => {
        const named = spec.names.test(basename(file.path)) || (file.beforePath !== null && spec.names.test(basename(file.beforePath)));
        if (!named) return [];
        // Renamed to a name no tool reads, the configuration is gone as surely as deleted.
        const after = spec.names.test(basename(file.path)) ? file.after : null;
        return spec
          .judge(file.before, after, file.path)
          .map((c) => ({ kind: spec.kind, detector: spec.id, path: file.path, message: c.message, lines: c.lines.slice(0, MAX_SHOWN_LINES) }));
      }),
  };
}
