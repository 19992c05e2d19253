import { parse, type ParseEntry } from "shell-quote";
import { HandledError } from "../../errors/index.js";

/**
 * Turns command text into a flat token list for the grammar in command-line.ts. shell-quote does the
 * quoting, but it is lenient in ways that would let a command hide from the policy, so this file
 * closes those gaps first:
 * - it reads a newline as a space (`ls\nrm -rf /` would become one `ls` command), so we split lines;
 * - a `#` comment swallows the rest of its input, so each line is parsed on its own;
 * - it silently accepts an unterminated quote, so we check quote balance ourselves.
 */

export type Token = { kind: "word"; value: string } | { kind: "op"; value: string };

export type CommandParseErrorCode = "empty" | "nul_byte" | "unterminated_quote" | "heredoc" | "syntax" | "too_deep";

export interface CommandParseError {
  code: CommandParseErrorCode;
  message: string;
}

/** Answered as a refusal the model reads (command-line.ts), never thrown past the policy. */
export class CommandSyntaxError extends HandledError {
  constructor(
    readonly kind: CommandParseErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Splits at newlines that are outside quotes (a newline ends a command, like `;`), drops
 * backslash-newline continuations, and refuses unterminated quotes. `$'…'` (ANSI-C) honours `\'`.
 * Backticks become `$(…)`: shell-quote splits `` `rm x` `` into two plain words, `$(…)` it understands.
 */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let current = "";
  let quote: "'" | '"' | "$'" | null = null;
  // sh starts a comment only at `#` that begins a word; shell-quote at any unquoted `#`, so in
  // `ls a#b; rm -rf x` it would hide the `rm` the shell runs. A `#` inside a word is escaped for it.
  let wordStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const startsWord: boolean = wordStart;
    wordStart = quote === null && /[ \t\n;&|()<>]/.test(c);
    if (c === "#" && quote === null && !startsWord) {
      current += "\\#";
      continue;
    }
    if (c === "\\" && quote !== "'") {
      const next = text[i + 1];
      if (next === "\n" && quote === null) {
        i++; // line continuation: both characters vanish
        wordStart = startsWord;
        continue;
      }
      current += c + (next ?? "");
      i++;
      continue;
    }
    if (c === "`" && (quote === null || quote === '"')) {
      const end = closingBacktick(text, i + 1);
      // Nested (escaped) backticks and newlines inside are handled by treating the body as a script.
      current += `$(${splitLines(text.slice(i + 1, end).replace(/\\`/g, "`")).join("; ")})`;
      i = end;
      continue;
    }
    if (quote === null) {
      if (c === "\r" && text[i + 1] === "\n") continue; // CRLF: the LF ends the line
      // sh splits words at space, tab and newline only; shell-quote at any \s (CR, VT, NBSP…), so
      // `ls\rrm x` would be judged as `ls` while sh runs another program. Nothing legitimate needs one.
      if (/\s/.test(c) && !/[ \t\n]/.test(c)) {
        throw new CommandSyntaxError(
          "syntax",
          `unquoted whitespace character U+${c.charCodeAt(0).toString(16).padStart(4, "0")}; use plain spaces and newlines`,
        );
      }
      if (c === "\n") {
        lines.push(current);
        current = "";
        continue;
      }
      if (c === "$" && text[i + 1] === "'") {
        quote = "$'";
        current += "$'";
        i++;
        continue;
      }
      if (c === "'" || c === '"') quote = c;
    } else if ((quote === "$'" && c === "'") || c === quote) {
      quote = null;
    }
    current += c;
  }
  if (quote !== null) throw new CommandSyntaxError("unterminated_quote", `unterminated ${quote} quote`);
  lines.push(current);
  return lines.filter((l) => l.trim().length > 0);
}

function closingBacktick(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === "`") return j;
  }
  throw new CommandSyntaxError("unterminated_quote", "unterminated ` quote");
}

const HEREDOC_OPS = new Set(["<<", "<<-"]);

/** Variables stay visible as `$NAME` text: the policy judges what was written, never an expansion. */
const keepVariable = (key: string): string => `$${key}`;

export function tokenize(text: string): Token[] {
  if (text.includes("\0")) throw new CommandSyntaxError("nul_byte", "the command contains a NUL byte");
  const tokens: Token[] = [];
  for (const line of splitLines(text)) {
    let entries: ParseEntry[];
    try {
      entries = parse(line, keepVariable) as ParseEntry[];
    } catch (err) {
      throw new CommandSyntaxError("syntax", `cannot parse ${JSON.stringify(line)}: ${(err as Error).message}`);
    }
    if (tokens.length > 0) tokens.push({ kind: "op", value: ";" });
    for (const entry of entries) {
      if (typeof entry === "string") tokens.push({ kind: "word", value: entry });
      else if ("comment" in entry) continue;
      else if (entry.op === "glob") tokens.push({ kind: "word", value: entry.pattern });
      else if (HEREDOC_OPS.has(entry.op)) {
        throw new CommandSyntaxError("heredoc", "here-documents are not supported; write files with write_file instead");
      } else tokens.push({ kind: "op", value: entry.op });
    }
  }
  if (tokens.length === 0) throw new CommandSyntaxError("empty", "the command is empty");
  return tokens;
}
