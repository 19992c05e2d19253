import { isShell, programName } from "./command-facts.js";

/**
 * Programs that run another command. `timeout 5 git push` must be judged as `git push`, so the parser
 * asks this file for the command inside and adds it as a part of its own. The wrapper stays a part
 * too (a repository may deny `nice` itself); default rules let a wrapper through so the inner decides.
 */
export type InnerCommand =
  /** argv of the wrapped program, plus any NAME=value the wrapper puts into its environment. */
  | { kind: "argv"; argv: string[]; assignments: string[] }
  /** A command line in a string (`sh -c`, `eval`, `env -S`): parsed again as a whole. */
  | { kind: "text"; text: string };

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export function isAssignment(word: string): boolean {
  return ASSIGNMENT.test(word);
}

/**
 * Skips options; `withValue` options consume the next word unless written `--opt=value` or, for short
 * ones, with the value attached (`-n5`). Returns the index of the first operand.
 */
function skipOptions(args: string[], start: number, withValue: Set<string>): number {
  let i = start;
  while (i < args.length && args[i].startsWith("-") && args[i] !== "-") {
    const a = args[i];
    if (a === "--") return i + 1;
    i += withValue.has(a) ? 2 : 1;
  }
  return i;
}

function argvInner(argv: string[], assignments: string[] = []): InnerCommand[] {
  return argv.length > 0 ? [{ kind: "argv", argv, assignments }] : [];
}

const ENV_VALUE_OPTS = new Set(["-u", "--unset", "-C", "--chdir"]);
const NICE_VALUE_OPTS = new Set(["-n", "--adjustment"]);
const TIMEOUT_VALUE_OPTS = new Set(["-s", "--signal", "-k", "--kill-after"]);
const TIME_VALUE_OPTS = new Set(["-f", "--format", "-o", "--output"]);
const STDBUF_VALUE_OPTS = new Set(["-i", "-o", "-e", "--input", "--output", "--error"]);
const EXEC_VALUE_OPTS = new Set(["-a"]);
/** `--replace`, `--eof`, `--max-lines` take their optional value only as `--opt=value`, so they are not here. */
const XARGS_VALUE_OPTS = new Set(["-I", "-d", "-E", "-L", "-n", "-P", "-s", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars"]);
const SHELL_VALUE_OPTS = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function envInner(argv: string[]): InnerCommand[] {
  let i = 1;
  while (i < argv.length) {
    const a = argv[i];
    // -S / --split-string: the value is itself a command line (`env -S "sh -c 'x'"`).
    if (a === "-S" || a === "--split-string") return [{ kind: "text", text: argv.slice(i + 1).join(" ") }];
    if (a.startsWith("--split-string=")) return [{ kind: "text", text: [a.slice(15), ...argv.slice(i + 1)].join(" ") }];
    if (a.startsWith("-S") && a.length > 2) return [{ kind: "text", text: [a.slice(2), ...argv.slice(i + 1)].join(" ") }];
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-")) break;
    i += ENV_VALUE_OPTS.has(a) ? 2 : 1;
  }
  const rest = argv.slice(i);
  const firstCommand = rest.findIndex((w) => !isAssignment(w));
  return firstCommand < 0 ? [] : argvInner(rest.slice(firstCommand), rest.slice(0, firstCommand));
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
      // `nice -10 cmd` is the old spelling of `-n 10`.
      return argvInner(argv.slice(skipOptions(argv, 1, NICE_VALUE_OPTS)));
    case "timeout":
      // The first operand is the duration.
      return argvInner(argv.slice(skipOptions(argv, 1, TIMEOUT_VALUE_OPTS) + 1));
    case "time":
      return argvInner(argv.slice(skipOptions(argv, 1, TIME_VALUE_OPTS)));
    case "stdbuf":
      return argvInner(argv.slice(skipOptions(argv, 1, STDBUF_VALUE_OPTS)));
    case "exec":
      return argvInner(argv.slice(skipOptions(argv, 1, EXEC_VALUE_OPTS)));
    case "nohup":
    case "setsid":
      return argvInner(argv.slice(skipOptions(argv, 1, new Set())));
    case "command":
      // `command -v x` only looks x up.
      return argv.some((a) => a === "-v" || a === "-V") ? [] : argvInner(argv.slice(skipOptions(argv, 1, new Set())));
    case "xargs": {
      const rest = argv.slice(skipOptions(argv, 1, XARGS_VALUE_OPTS));
      return argvInner(rest.length > 0 ? rest : ["echo"]);
    }
    case "eval":
      return argv.length > 1 ? [{ kind: "text", text: argv.slice(1).join(" ") }] : [];
    case "find":
      return findInner(argv);
    default:
      return [];
  }
}
