import path from "node:path";

/**
 * Small facts about argv that several rules need. Kept apart from the rules so each rule reads as one
 * sentence and the facts are tested once.
 */

/** `/usr/bin/git` → `git`. Deny rules match on this so a path prefix cannot dodge them. */
export function programName(argv0: string | undefined): string {
  if (argv0 === undefined) return "";
  return path.posix.basename(argv0.replace(/\\/g, "/"));
}

/**
 * Where an allow rule may trust a program name: a bare name (PATH lookup) or a system bin directory.
 * `./cat` or `../bin/ls` may be a script the agent just wrote, so it must not inherit `cat`'s allowance.
 */
export function isTrustedProgramPath(argv0: string): boolean {
  if (!argv0.includes("/")) return true;
  return /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(argv0);
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash"]);
const INTERPRETERS = new Set(["node", "nodejs", "perl", "ruby", "php", "deno", "bun", "python", "pypy", "pypy3"]);

export function isShell(program: string): boolean {
  return SHELLS.has(program);
}

/** Shells plus script interpreters that execute what they read on stdin. */
export function isShellOrInterpreter(program: string): boolean {
  return SHELLS.has(program) || INTERPRETERS.has(program) || /^python\d+(\.\d+)?$/.test(program);
}

export function isDownloader(program: string): boolean {
  return program === "curl" || program === "wget";
}

/** git options that come before the subcommand and take a separate value. */
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

/**
 * git's subcommand and its arguments, skipping global options: `git -C x -c a=b push` → push.
 * `configs` collects `-c key=value` pairs, which can set dangerous keys for one invocation.
 */
export function gitInvocation(argv: string[]): { subcommand: string | null; args: string[]; configs: string[] } {
  const configs: string[] = [];
  let i = 1;
  while (i < argv.length && argv[i].startsWith("-")) {
    const opt = argv[i];
    if (GIT_OPTIONS_WITH_VALUE.has(opt)) {
      if (opt === "-c" && argv[i + 1] !== undefined) configs.push(argv[i + 1]);
      i += 2;
      continue;
    }
    i += 1;
  }
  return { subcommand: argv[i] ?? null, args: argv.slice(i + 1), configs };
}

/** Short flag clusters (`-rf`) and long flags up to `--`; what the rules look at for `rm`, `chmod`. */
export function flagsOf(args: string[]): { short: Set<string>; long: Set<string>; operands: string[] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let afterDoubleDash = false;
  for (const a of args) {
    if (afterDoubleDash || a === "-" || !a.startsWith("-")) operands.push(a);
    else if (a === "--") afterDoubleDash = true;
    else if (a.startsWith("--")) long.add(a.slice(2).split("=")[0]);
    else for (const ch of a.slice(1)) short.add(ch);
  }
  return { short, long, operands };
}
