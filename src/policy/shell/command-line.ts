import { Parser } from "./command-grammar.js";
import { CommandSyntaxError, tokenize, type CommandParseError } from "./shell-tokens.js";

/**
 * A command line as the policy judges it: a flat list of simple commands. Each pipeline stage, each
 * `&&`/`;` operand, each command inside a subshell or substitution, and each command a wrapper runs
 * (`timeout 5 x`, `sh -c '…'`) is a part of its own, so a rule can never be dodged by nesting.
 */
export interface CommandPart {
  /** Program onward; NAME=value prefixes are in `assignments`. Variables stay as `$NAME` text. */
  argv: string[];
  /** The part rendered back to text, for humans and for logs. */
  text: string;
  /** stdin comes from the previous stage of a pipeline. */
  pipedFromPrevious: boolean;
  /** `PATH=. ls` runs a different `ls`: the policy needs to see these. */
  assignments: string[];
  redirects: Redirect[];
  /** Indices of parts whose output this part consumes: pipe, `$(…)`, `<(…)`. Wrapped parts inherit. */
  inputFrom: number[];
  /** A wrapper changed directory first (`env -C dir`): that directory, absolute or relative to the part's parent. */
  cwd?: string;
  /** A wrapper's argv runs this part (`timeout 5 cmd`, `env -C dir cmd`), not the request itself. */
  wrapped?: boolean;
}

export interface Redirect {
  /** shell-quote operator: `>`, `>>`, `<`, `>&`, `&>`, `<<<`, … */
  op: string;
  /** File descriptor written before the operator (`2>`), if any. */
  fd?: string;
  target: string;
}

export interface CommandLine {
  parts: CommandPart[];
  hasSubshell: boolean;
  /** Every redirection in the line, as text (`2>&1`, `> out.txt`). */
  redirects: string[];
}

export type ParsedCommandLine = { ok: true; line: CommandLine } | { ok: false; error: CommandParseError };

/** A line we cannot read is an error value (the policy denies it), never an exception. */
export function parseCommandLine(text: string): ParsedCommandLine {
  return parseWith(() => {
    const parser = new Parser(tokenize(text), 0);
    parser.parseList(false);
    return parser;
  });
}

/**
 * An argv that runs without a shell: one part for the program, plus a part for every command a wrapper
 * in it runs (`timeout 5 git push`), and the parsed text of an explicit shell (`sh -c "…"`).
 */
export function parseArgv(argv: string[]): ParsedCommandLine {
  return parseWith(() => {
    if (argv.length === 0 || argv[0] === "") throw new CommandSyntaxError("empty", "argv is empty: give the program as its first word");
    if (argv.some((a) => a.includes("\0"))) throw new CommandSyntaxError("nul_byte", "an argument contains a NUL byte");
    const parser = new Parser([], 0);
    parser.addCommand(argv);
    return parser;
  });
}

function parseWith(build: () => Parser): ParsedCommandLine {
  try {
    const { parts, hasSubshell, redirects } = build();
    return { ok: true, line: { parts, hasSubshell, redirects } };
  } catch (err) {
    if (CommandSyntaxError.isInstance(err)) return { ok: false, error: { code: err.kind, message: err.message } };
    throw err;
  }
}
