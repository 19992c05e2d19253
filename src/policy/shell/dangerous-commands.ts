import path from "node:path";
import { SANDBOX_WORKSPACE } from "../well-known-paths.js";
import { flagsOf, gitInvocation, programName } from "./command-facts.js";
import type { PartContext } from "../types.js";

/**
 * Predicates behind the default deny rules, one per danger. Each takes one simple command's argv.
 * Relative operands are resolved against the workspace root, where commands start.
 */
type Ctx = PartContext;

/** After `env -C dir`, relative operands are relative to dir: outside when dir may be. */
function leaves(target: string, ctx: Ctx): boolean {
  const where = ctx.cwd === undefined || path.posix.isAbsolute(target) ? target : path.posix.join(ctx.cwd, target);
  return mayLeaveWorkspace(where, ctx.workspaceRoot);
}

/**
 * True when `target` is, or may be, outside the workspace. Anything we cannot place (a variable,
 * a substitution, `~`) counts as outside, as does a `.*` glob (older shells expand it to `..`).
 */
function mayLeaveWorkspace(target: string, workspaceRoot: string): boolean {
  if (target.startsWith("~") || target.includes("$") || target.includes("`")) return true;
  if (target.split("/").some((segment) => /^\.[*?]/.test(segment))) return true;
  const root = path.resolve(workspaceRoot);
  const rel = path.relative(root, path.resolve(root, target));
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/** `rm` of anything outside (recursive or not: deleting outside the workspace is never the task). */
export function rmOutsideWorkspace(argv: string[], ctx: Ctx): boolean {
  return programName(argv[0]) === "rm" && flagsOf(argv.slice(1)).operands.some((t) => leaves(t, ctx));
}

const CHMOD_MODE = /^([0-7]{3,4}|[ugoa]*([-+=][rwxXstugo]*)+(,[ugoa]*([-+=][rwxXstugo]*)+)*)$/;

/** chmod/chown/chgrp on anything outside; `chmod -R 777 /` is the classic. */
export function permissionsOutsideWorkspace(argv: string[], ctx: Ctx): boolean {
  const program = programName(argv[0]);
  if (program !== "chmod" && program !== "chown" && program !== "chgrp") return false;
  // chmod's symbolic modes may start with `-` (`chmod -w f`), so they are filtered before flag parsing.
  const args = argv.slice(1).filter((a) => !(program === "chmod" && CHMOD_MODE.test(a)));
  const { long, operands } = flagsOf(args);
  const targets = program === "chmod" || long.has("reference") ? operands : operands.slice(1);
  return targets.some((t) => leaves(t, ctx));
}

export function ddToDevice(argv: string[]): boolean {
  return programName(argv[0]) === "dd" && argv.some((a) => a.startsWith("of=/dev/") && !/^of=\/dev\/(null|stdout|stderr)$/.test(a));
}

export function makesFilesystem(argv: string[]): boolean {
  return /^(mkfs(\..+)?|mke2fs|mkswap|wipefs)$/.test(programName(argv[0]));
}

/** The parser renders `f(){ …; }` as `function f { … }`; a body that pipes f into f is a fork bomb. */
export function forkBomb(argv: string[]): boolean {
  if (argv[0] !== "function" || argv[1] === undefined) return false;
  const name = argv[1];
  const body = argv.slice(3, -1);
  return body.some((w, i) => w === name && (body[i + 1] === "|" || body[i + 1] === "|&") && body[i + 2] === name);
}

export function gitPush(argv: string[]): boolean {
  return programName(argv[0]) === "git" && gitInvocation(argv).subcommand === "push";
}

/** Config keys that make git run a program (hooks, fsmonitor, pagers, filters, aliases, includes). */
const GIT_EXEC_KEYS = [
  /^core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)$/,
  /^(sequence\.editor|diff\.external|credential\.helper|uploadpack\.packobjectshook|include\.path|gpg\.program)$/,
  /^(alias|includeif)\./,
  /^(filter\..+\.(clean|smudge|process)|diff\..+\.(command|textconv)|merge\..+\.driver|credential\..+\.helper|gpg\..+\.program)$/,
];

function isGitExecKey(key: string): boolean {
  const k = key.toLowerCase();
  return GIT_EXEC_KEYS.some((re) => re.test(k));
}

const GIT_CONFIG_READS = new Set(["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "get", "list"]);

/**
 * `git config core.hooksPath x` and friends, and `git -c core.fsmonitor=x <anything>`. Patchgate itself
 * runs git on the host (status, diff, commit), so such a key would run the agent's code outside the sandbox.
 */
export function gitConfigExec(argv: string[]): boolean {
  if (programName(argv[0]) !== "git") return false;
  const { subcommand, args, configs } = gitInvocation(argv);
  if (configs.some((c) => isGitExecKey(c.split("=")[0]))) return true;
  if (subcommand !== "config" || args.some((a) => GIT_CONFIG_READS.has(a))) return false;
  return args.some((a) => !a.startsWith("-") && isGitExecKey(a.split("=")[0]));
}

/**
 * Credential stores and other processes' state. Anything under a process's /proc directory counts
 * (`environ`, but also `task/N/environ`, `root/…`, `cwd/…`, `fd/N`, which lead anywhere), and so does
 * /proc itself (`grep -r x /proc`). A `$`, `*`, `?`, `[` or `{` in the pid position may be any pid.
 */
const SECRET_PATHS = [
  /^\/proc\/?$/,
  /^\/proc\/(self|thread-self|\d+|[^/]*[$*?[{][^/]*)(\/|$)/,
  /^(~[^/]*|\$HOME|\$\{HOME\}|\/root|\/home\/[^/]+)\/\.(ssh|aws|gnupg|netrc|git-credentials|npmrc|pypirc|docker\/config\.json|config\/gh)(\/|$)/,
  /^\/etc\/(shadow|gshadow|sudoers)/,
];

/** Where a path-like piece of an argument starts: `/…`, `~…`, `$HOME…`; it ends at quoting or expansion syntax. */
const PATH_IN_WORD = /(?:\/|~|\$\{?HOME\}?)[^\s'"{}()<>|;&,:=]*/g;

/**
 * Every path an argument may name: the word itself, resolved against where the command runs (so
 * `../../proc/1/environ` and `env -C /proc/self cat environ` are seen), and every absolute-looking path
 * inside it (`-f/proc/1/environ`, `--file=…`, `if=…`, `${X:-/proc/self/environ}`).
 */
function pathsIn(arg: string, cwd: string): string[] {
  const unresolvable = (p: string) => p.startsWith("~") || p.startsWith("$");
  const whole = unresolvable(arg) ? arg : unresolvable(cwd) ? path.posix.join(cwd, arg) : path.posix.resolve(SANDBOX_WORKSPACE, cwd, arg);
  const found = [whole];
  for (const m of arg.matchAll(PATH_IN_WORD)) found.push(m[0]);
  return found.map((p) => (p.startsWith("/") ? path.posix.normalize(p) : p));
}

/**
 * Any argument naming a credential store or another process's environment. Normalised first, so
 * `/proc/self/../1/environ` is seen for what it is.
 */
export function readsSecrets(argv: string[], ctx?: PartContext): boolean {
  const cwd = ctx?.cwd ?? ".";
  return argv.slice(1).some((a) => pathsIn(a, cwd).some((c) => SECRET_PATHS.some((re) => re.test(c))));
}
