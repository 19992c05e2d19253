import { programName } from "./command-facts.js";
import type { PartContext } from "../types.js";

/**
 * What `allow:git-read-only` allows, named one by one: git itself as the command run_command starts
 * (not inside a wrapper, not in a directory a wrapper chose), on the workspace's own repository (no
 * global option but `--no-pager`), one of four subcommands, and only the options listed for it. git
 * takes any unambiguous prefix of a long option, so a list of refused options (`--output`,
 * `--ext-diff`) misses `--outp` and `--ext-d`; a list of allowed ones does not. Words without a dash
 * are revisions and paths: git reads them. The run itself carries read-only-git-run.ts's settings.
 */

/** Options without a value; long ones with a value (`--stat=80`, `--grep x`); short ones with an attached value (`-U5`). */
type OptionList = { flags: string[]; valued: string[]; shortValued: string };

const DIFF_OUTPUT: OptionList = {
  flags: [
    "-p",
    "-u",
    "--patch",
    "-s",
    "--no-patch",
    "--raw",
    "--stat",
    "--numstat",
    "--shortstat",
    "--dirstat",
    "--summary",
    "--name-only",
    "--name-status",
    "--compact-summary",
    "--patch-with-stat",
    "--patch-with-raw",
    "-z",
    "--color",
    "--no-color",
    "--word-diff",
    "--color-words",
    "--color-moved",
    "--no-renames",
    "--find-renames",
    "-M",
    "-B",
    "--find-copies",
    "-w",
    "-b",
    "--ignore-all-space",
    "--ignore-space-change",
    "--ignore-space-at-eol",
    "--ignore-blank-lines",
    "--ignore-cr-at-eol",
    "--minimal",
    "--patience",
    "--histogram",
    "--full-index",
    "--binary",
    "--abbrev",
    "--no-abbrev",
    "--relative",
    "--no-relative",
    "-R",
    "--text",
    "-a",
    "--exit-code",
    "--quiet",
    "--check",
    "--function-context",
    "-W",
    "--no-ext-diff",
    "--no-textconv",
    "--ita-invisible-in-index",
  ],
  valued: [
    "--stat",
    "--dirstat",
    "--unified",
    "--color",
    "--word-diff",
    "--word-diff-regex",
    "--color-words",
    "--color-moved",
    "--find-renames",
    "--find-copies",
    "--diff-filter",
    "--diff-algorithm",
    "--abbrev",
    "--relative",
    "--inter-hunk-context",
    "--submodule",
    "--ignore-submodules",
    "--src-prefix",
    "--dst-prefix",
  ],
  shortValued: "UMBl",
};

const DIFF: OptionList = {
  flags: [...DIFF_OUTPUT.flags, "--cached", "--staged", "--merge-base"],
  valued: DIFF_OUTPUT.valued,
  shortValued: DIFF_OUTPUT.shortValued,
};

const HISTORY: OptionList = {
  flags: [
    ...DIFF_OUTPUT.flags,
    "--oneline",
    "-n",
    "--graph",
    "--decorate",
    "--no-decorate",
    "--first-parent",
    "--merges",
    "--no-merges",
    "--reverse",
    "--all",
    "--branches",
    "--tags",
    "--remotes",
    "--follow",
    "--abbrev-commit",
    "--no-abbrev-commit",
    "--topo-order",
    "--date-order",
    "--author-date-order",
    "--left-right",
    "--cherry-pick",
    "--boundary",
    "--ancestry-path",
    "--source",
    "--parents",
    "--children",
    "--full-history",
    "--simplify-by-decoration",
    "--no-walk",
    "-i",
    "--regexp-ignore-case",
    "--all-match",
    "--invert-grep",
    "-E",
    "--extended-regexp",
    "-F",
    "--fixed-strings",
    "--pickaxe-all",
    "-m",
    "--cc",
    "--no-notes",
  ],
  valued: [
    ...DIFF_OUTPUT.valued,
    "--max-count",
    "--skip",
    "--since",
    "--after",
    "--until",
    "--before",
    "--author",
    "--committer",
    "--grep",
    "--format",
    "--pretty",
    "--date",
    "--decorate",
    "--branches",
    "--tags",
    "--remotes",
    "--max-parents",
    "--min-parents",
  ],
  // `-n5`, `-U3`, `-S<string>`, `-G<regex>`, `-L<range>` (a range and a file: read).
  shortValued: `${DIFF_OUTPUT.shortValued}nSGL`,
};

const STATUS: OptionList = {
  flags: [
    "-s",
    "--short",
    "-b",
    "--branch",
    "--porcelain",
    "--long",
    "-u",
    "--untracked-files",
    "--ignored",
    "-z",
    "--no-renames",
    "--renames",
    "--find-renames",
    "--column",
    "--no-column",
    "--ahead-behind",
    "--no-ahead-behind",
    "-v",
    "--verbose",
    "--show-stash",
  ],
  valued: ["--porcelain", "--untracked-files", "--ignored", "--ignore-submodules", "--find-renames", "--column"],
  shortValued: "uM",
};

/** The subcommands a reader may run, and what each may be given. */
const GIT_READS: ReadonlyMap<string, OptionList> = new Map([
  ["status", STATUS],
  ["diff", DIFF],
  ["log", HISTORY],
  ["show", HISTORY],
]);

function optionAllowed(word: string, list: OptionList): boolean {
  if (list.flags.includes(word)) return true;
  const eq = word.indexOf("=");
  // `--grep=x` or `--grep x`: the value of a listed option is data for git, whatever it says.
  if (word.startsWith("--")) return list.valued.includes(eq > 0 ? word.slice(0, eq) : word);
  // `-5` (a count), `-U5` / `-n3` (a short option and its attached value).
  return /^-\d+$/.test(word) || (word.length > 2 && list.shortValued.includes(word[1]));
}

export function gitReadOnly(argv: string[], ctx: PartContext): boolean {
  if (programName(argv[0]) !== "git" || ctx.wrapped === true || ctx.cwd !== undefined) return false;
  let i = 1;
  while (argv[i] === "--no-pager") i++;
  const list = GIT_READS.get(argv[i] ?? "");
  if (list === undefined) return false;
  const args = argv.slice(i + 1);
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).every((a) => !a.startsWith("-") || optionAllowed(a, list));
}
