import picomatch from "picomatch";
import { programName } from "./shell/command-facts.js";
import type { PartContext } from "./types.js";

/**
 * What an allow rule made of words (a repository's `allow_commands` entry) allows: exactly its words,
 * plus extra words only where the entry lists them. Some commands no such rule allows, whatever it
 * names: each changes what runs by means the words of the rule do not show. (Programs that run what
 * data says — make, npm run, npx, git -C … — ask for every rule; see shell/runs-from-data.ts.)
 */

/**
 * git subcommands that read objects and refs only and run no program named in configuration (no
 * pager when output is not a terminal, no diff driver, hook, filter, signature check or transport).
 * Every other one may: `git commit` runs hooks and filters, `git diff` an external diff, `git grep -O`
 * a pager, `git ls-files -m` and `describe --dirty` a clean filter, `rev-list --format=%G?` gpg.
 */
const GIT_PLUMBING = new Set(["rev-parse", "ls-tree", "merge-base", "show-ref", "name-rev"]);

/** Whether a rule of words may allow this command at all. */
export function prefixMayAllow(argv: readonly string[], ctx: PartContext): boolean {
  // `env -C dir cmd`: the same words in another directory find another configuration.
  if (ctx.cwd !== undefined) return false;
  if (programName(argv[0]) !== "git") return true;
  // No global option (`-C`, `-c`, `--git-dir`, `--exec-path`, `--namespace`, `-p` …): the subcommand comes first.
  return GIT_PLUMBING.has(argv[1] ?? "") && !argv.slice(2).some((a) => /^--(textconv|filters|output)(=|$)/.test(a));
}

/**
 * The words after the declared ones. None, unless the rule lists patterns; then each word must match
 * one. A pattern never admits an option unless it starts with `-` itself (`*` matches `src/a.ts`, not
 * `--plugin=x`), and no word leaves the workspace by an absolute path or a `..` segment.
 */
export function extraArgsAllowed(extra: readonly string[], patterns: readonly string[] | undefined): boolean {
  if (extra.length === 0) return true;
  if (patterns === undefined || patterns.length === 0) return false;
  return extra.every((word) => {
    if (word.startsWith("/") || word.split("/").includes("..")) return false;
    const candidates = patterns.filter((p) => p.startsWith("-") === word.startsWith("-"));
    return candidates.length > 0 && picomatch.isMatch(word, candidates, { dot: false });
  });
}
