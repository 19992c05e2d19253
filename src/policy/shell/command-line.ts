import { Parser } from "./command-grammar.js";
import type { CommandPart } from "./command-parts.js";
import { CommandSyntaxError, tokenize, type CommandParseError } from "./shell-tokens.js";

/** A parsed command line: its simple commands (command-parts.ts), and what the line does around them. */
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
