import { isShell, programName } from "./command-facts.js";
import { operandStarts, type OptionSpec } from "./wrapper-options.js";

/**
 * Programs that run another command. `timeout 5 git push` must be judged as `git push`, so the parser
 * asks this file for the command inside and adds it as a part of its own. The wrapper stays a part
 * too (a repository may deny `nice` itself); default rules let a wrapper through so the inner decides.
 */
export type InnerCommand =
  /**
   * argv of the wrapped program, plus any NAME=value the wrapper puts into its environment, and the
   * directory it runs in when the wrapper changes it (`env -C dir`).
   */
  | { kind: "argv"; argv: string[]; assignments: string[]; cwd?: string }
  /** A command line in a string (`sh -c`, `eval`, `env -S`): parsed again as a whole. */
  | { kind: "text"; text: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function isAssignment(word: string): boolean {
  return ASSIGNMENT.test(word);
}

function argvInner(argv: string[], assignments: string[] = [], cwd?: string): InnerCommand[] {
  if (argv.length === 0) return [];
  return [cwd === undefined ? { kind: "argv", argv, assignments } : { kind: "argv", argv, assignments, cwd }];
}

/** The commands after the wrapper's options, one per reading of them (see wrapper-options.ts). */
function afterOptions(argv: string[], spec: OptionSpec, skip = 0, orElse?: string[]): InnerCommand[] {
  return operandStarts(argv, 1, spec).starts.flatMap((s) => {
    const rest = argv.slice(s + skip);
    return argvInner(rest.length === 0 && orElse ? orElse : rest);
  });
}

const flagsOnly = (shortFlags: string, longFlags: string[]): OptionSpec => ({
  shortValue: "",
  shortFlags,
  longValue: [],
  longFlags: [...longFlags, "help", "version"],
});

// Option tables of GNU coreutils/findutils/time and bash's builtins. An option missing here is read
// both ways, so a newer version's extra option makes a decision stricter, never looser.
const ENV_OPTS: OptionSpec = {
  shortValue: "uCSa",
  shortFlags: "i0v",
  longValue: ["unset", "chdir", "split-string", "argv0"],
  longFlags: ["ignore-environment", "null", "debug", "list-signal-handling", "block-signal", "default-signal", "ignore-signal", "help", "version"],
};
const NICE_OPTS: OptionSpec = { shortValue: "n", shortFlags: "", longValue: ["adjustment"], longFlags: ["help", "version"], numeric: true };
const TIMEOUT_OPTS: OptionSpec = {
  shortValue: "ks",
  shortFlags: "v",
  longValue: ["kill-after", "signal"],
  longFlags: ["preserve-status", "foreground", "verbose", "help", "version"],
};
const TIME_OPTS: OptionSpec = {
  shortValue: "fo",
  shortFlags: "apqvV",
  longValue: ["format", "output"],
  longFlags: ["append", "portability", "quiet", "verbose", "help", "version"],
};
const STDBUF_OPTS: OptionSpec = { shortValue: "ioe", shortFlags: "", longValue: ["input", "output", "error"], longFlags: ["help", "version"] };
const EXEC_OPTS: OptionSpec = { shortValue: "a", shortFlags: "cl", longValue: [], longFlags: [] };
const NOHUP_OPTS = flagsOnly("", []);
const SETSID_OPTS = flagsOnly("cfw", ["ctty", "fork", "wait"]);
const COMMAND_OPTS = flagsOnly("p", []);
/** `-e`, `-i`, `-l` take an optional value, attached only; `--eof`, `--replace`, `--max-lines` only as `--opt=value`. */
const XARGS_OPTS: OptionSpec = {
  shortValue: "aEILnsPd",
  shortOptional: "eil",
  shortFlags: "0oprtx",
  longValue: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"],
  longFlags: ["null", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "open-tty", "max-lines", "eof", "replace", "help", "version"],
};
const SHELL_VALUE_OPTS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** `-S cmd`, `-iS cmd`, `-Scmd`, `--split-string=cmd`, `--spl cmd`: the value is a command line. */
function splitString(argv: string[], i: number): string | null {
  const a = argv[i];
  const rest = argv.slice(i + 1);
  if (a.startsWith("--")) {
    const eq = a.indexOf("=");
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (name === "" || !"split-string".startsWith(name)) return null;
    return (eq < 0 ? rest : [a.slice(eq + 1), ...rest]).join(" ");
  }
  for (let j = 1; j < a.length; j++) {
    if (a[j] === "S") return [a.slice(j + 1), ...rest].filter((w) => w !== "").join(" ");
    if (!ENV_OPTS.shortFlags.includes(a[j])) return null;
  }
  return null;
}

/** `-C dir`, `-Cdir`, `-iC dir`, `--chdir=dir`, `--ch dir`: the directory env runs the command in. */
function chdirValue(argv: string[], i: number): string | null {
  const a = argv[i];
  if (a.startsWith("--")) {
    const eq = a.indexOf("=");
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (name === "" || !"chdir".startsWith(name)) return null;
    return eq < 0 ? (argv[i + 1] ?? null) : a.slice(eq + 1);
  }
  for (let j = 1; j < a.length; j++) {
    if (a[j] === "C") return j === a.length - 1 ? (argv[i + 1] ?? null) : a.slice(j + 1);
    if (!ENV_OPTS.shortFlags.includes(a[j])) return null;
  }
  return null;
}

function envInner(argv: string[]): InnerCommand[] {
  const { starts, options } = operandStarts(argv, 1, ENV_OPTS);
  const inners: InnerCommand[] = [];
  let cwd: string | undefined;
  for (const i of options) {
    const text = splitString(argv, i);
    if (text !== null) inners.push({ kind: "text", text });
    // Relative paths of the command are relative to this directory: rules that resolve paths need it.
    cwd = chdirValue(argv, i) ?? cwd;
  }
  for (const s of starts) {
    const rest = argv.slice(s);
    const firstCommand = rest.findIndex((w) => !isAssignment(w));
    if (firstCommand >= 0) inners.push(...argvInner(rest.slice(firstCommand), rest.slice(0, firstCommand), cwd));
  }
  return inners;
}

/** `bash -c 'cmd'`, `sh -ec 'cmd'`: the string after a cluster containing `c`. `bash script.sh` has no inner. */
function shellInner(argv: string[]): InnerCommand[] {
  let sawC = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (SHELL_VALUE_OPTS.has(a)) {
      i++;
      continue;
    }
    if (a === "--" || a === "-") continue;
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith("-") && a.includes("c")) sawC = true;
      continue;
    }
    if (a.startsWith("--")) continue;
    return sawC ? [{ kind: "text", text: a }] : [];
  }
  return [];
}

function findInner(argv: string[]): InnerCommand[] {
  const inners: InnerCommand[] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!FIND_EXEC.has(argv[i])) continue;
    const end = argv.findIndex((w, j) => j > i && (w === ";" || w === "+"));
    const stop = end < 0 ? argv.length : end;
    inners.push(...argvInner(argv.slice(i + 1, stop)));
    i = stop;
  }
  return inners;
}

/** The commands `argv` runs on its own behalf; empty when it is not a wrapper. */
export function innerCommands(argv: string[]): InnerCommand[] {
  const program = programName(argv[0]);
  if (isShell(program)) return shellInner(argv);
  switch (program) {
    case "env":
      return envInner(argv);
    case "nice":
      return afterOptions(argv, NICE_OPTS);
    case "timeout":
      // The first operand is the duration.
      return afterOptions(argv, TIMEOUT_OPTS, 1);
    case "time":
      return afterOptions(argv, TIME_OPTS);
    case "stdbuf":
      return afterOptions(argv, STDBUF_OPTS);
    case "exec":
      return afterOptions(argv, EXEC_OPTS);
    case "nohup":
      return afterOptions(argv, NOHUP_OPTS);
    case "setsid":
      return afterOptions(argv, SETSID_OPTS);
    case "command":
      // `command -v x` only looks x up.
      return argv.some((a) => a === "-v" || a === "-V") ? [] : afterOptions(argv, COMMAND_OPTS);
    case "xargs":
      return afterOptions(argv, XARGS_OPTS, 0, ["echo"]);
    case "eval":
      return argv.length > 1 ? [{ kind: "text", text: argv.slice(1).join(" ") }] : [];
    case "find":
      return findInner(argv);
    default:
      return [];
  }
}
