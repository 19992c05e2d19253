import path from "node:path";
import { isDownloader, isShellOrInterpreter, programName } from "./command-facts.js";
import type { CommandLine } from "./command-line.js";
import type { CommandPart, Redirect } from "./command-parts.js";

/**
 * Facts about a parsed line that no single-part rule can see: where output flows, what a changed
 * environment means, where a redirection writes. approval-policy.ts turns them into decisions.
 */

/**
 * A part that would execute what it is fed: a shell or interpreter, `source`/`.`/`eval`, or a command
 * whose very program name comes from a substitution (`$(curl …)` run as a command).
 */
function executesInput(argv: string[]): boolean {
  const program = programName(argv[0]);
  return isShellOrInterpreter(program) || program === "source" || program === "." || program === "eval" || (argv[0] ?? "").includes("$(");
}

/** Indices of parts that execute (directly or through other parts) what a downloader fetched. */
export function partsFedByDownload(line: CommandLine): Set<number> {
  const fed = new Set<number>();
  const reachesDownload = (index: number, seen: Set<number>): boolean => {
    if (seen.has(index)) return false;
    seen.add(index);
    return line.parts[index].inputFrom.some((j) => isDownloader(programName(line.parts[j].argv[0])) || reachesDownload(j, seen));
  };
  line.parts.forEach((part, i) => {
    if (executesInput(part.argv) && reachesDownload(i, new Set())) fed.add(i);
  });
  return fed;
}

/**
 * Variables that change which program runs or what it loads. Ordinary ones (`CI=1`, `NODE_ENV=test`)
 * are left alone: blocking them would make every test command ask.
 */
// RIPGREP_CONFIG_PATH names a file of extra rg flags (`--pre=bash` runs every searched file), which
// `echo --pre=bash | RIPGREP_CONFIG_PATH=/dev/stdin rg …` supplies inline; GCONV_PATH, LOCPATH and
// NLSPATH make glibc load modules and data from a directory of the caller's choosing.
const RISKY_ENV =
  /^(PATH|HOME|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS4|IFS|PROMPT_COMMAND|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5LIB|PERL5OPT|RUBYOPT|RUBYLIB|XDG_CONFIG_HOME|RIPGREP_CONFIG_PATH|GCONV_PATH|LOCPATH|NLSPATH|LD_\w+|DYLD_\w+|GIT_\w+|npm_config_\w+|NPM_CONFIG_\w+)=/;

export function riskyAssignments(part: CommandPart): string[] {
  return part.assignments.filter((a) => RISKY_ENV.test(a));
}

const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
/** bash opens a network connection for these names: never a file, never inside. */
const SOCKET_TARGETS = /^\/dev\/(tcp|udp)\//;

/** Where a redirection touches a file: a write (workspace-relative), a write we cannot place, a read, or nothing. */
export type RedirectEffect = { kind: "none" } | { kind: "write"; rel: string } | { kind: "write-outside"; target: string } | { kind: "read"; target: string };

export function redirectEffect(r: Redirect, workspaceRoot: string): RedirectEffect {
  const t = r.target;
  // fd duplication (`2>&1`, `>&-`) and process substitutions (judged as parts) touch no file.
  if (((r.op === ">&" || r.op === "<&") && /^(\d+|-)$/.test(t)) || /^[<>]\(/.test(t) || HARMLESS_TARGETS.test(t)) return { kind: "none" };
  if (SOCKET_TARGETS.test(t)) return { kind: "write-outside", target: t };
  if (!WRITE_OPS.has(r.op)) return r.op === "<<<" ? { kind: "none" } : { kind: "read", target: t };
  // A variable, substitution or `~` could point anywhere: we cannot show that it stays inside.
  if (t.includes("$") || t.includes("`") || t.startsWith("~")) return { kind: "write-outside", target: t };
  const root = path.resolve(workspaceRoot);
  const rel = path.relative(root, path.resolve(root, t));
  if (rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return { kind: "write-outside", target: t };
  return { kind: "write", rel: rel.split(path.sep).join("/") || "." };
}
