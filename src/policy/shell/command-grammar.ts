import path from "node:path";
import { isShell, programName } from "./command-facts.js";
import type { CommandPart, Redirect } from "./command-parts.js";
import { innerCommands, isAssignment } from "./wrappers.js";
import { CommandSyntaxError, tokenize, type Token } from "./shell-tokens.js";
import { embeddedSubstitutions, quoteWords, renderWords } from "./substitutions.js";

/**
 * The grammar behind parseCommandLine: lists, pipelines, subshells, simple commands, redirections,
 * substitutions and function definitions, over shell-quote's tokens. Every command found anywhere is
 * appended to `parts`, so nesting can hide nothing; what bash would reject, or what we do not model
 * (`case`, here-documents), is a CommandSyntaxError.
 */

const SEPARATORS = new Set([";", "&", "&&", "||"]);
const PIPES = new Set(["|", "|&"]);
const REDIRECTS = new Set([">", ">>", "<", ">&", "<&", "<>", ">|", "&>", "&>>", "<<<"]);
/** Reserved words that only introduce the command after them (`then rm -rf /` runs rm). */
const LEADING_KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{"]);
const CLOSING_KEYWORDS = new Set(["fi", "done", "}"]);
/** Shells inside shells (`sh -c "sh -c …"`), and parentheses inside one parse. */
const MAX_DEPTH = 8;
const MAX_NESTING = 32;

function renderRedirect(r: Redirect): string {
  return `${r.fd ?? ""}${r.op}${r.op.endsWith("&") ? "" : " "}${renderWords([r.target])}`;
}

const syntax = (why: string) => new CommandSyntaxError("syntax", why);

export class Parser {
  parts: CommandPart[] = [];
  hasSubshell = false;
  redirects: string[] = [];
  private pos = 0;
  private nesting = 0;
  /** Set after `f()`: its body follows without a separator. */
  private bodyFollows = false;

  constructor(
    private readonly tokens: Token[],
    private readonly depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new CommandSyntaxError("too_deep", "the command nests shells or substitutions too deeply");
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private isOp(t: Token | undefined, ...ops: string[]): boolean {
    return t?.kind === "op" && ops.includes(t.value);
  }

  /** A list of pipelines up to the end, or up to the `)` that closes a nested list. */
  parseList(nested: boolean): number[] {
    const all: number[] = [];
    let pipeFrom: number[] | null = null;
    for (;;) {
      const t = this.peek();
      if (t === undefined || this.isOp(t, ")")) {
        if (pipeFrom) throw syntax("a pipe `|` has no command after it");
        if (t && !nested) throw syntax("unmatched `)`");
        if (!t && nested) throw syntax("unmatched `(`");
        return all;
      }
      const unit = this.parseUnit(pipeFrom);
      all.push(...unit);
      pipeFrom = null;
      if (this.bodyFollows) {
        this.bodyFollows = false;
        continue;
      }
      const sep = this.peek();
      if (sep === undefined || this.isOp(sep, ")")) continue;
      if (sep.kind === "op" && PIPES.has(sep.value)) pipeFrom = unit;
      else if (sep.kind === "op" && SEPARATORS.has(sep.value)) pipeFrom = null;
      else throw syntax(`unexpected ${JSON.stringify(sep.value)}`);
      this.pos++;
    }
  }

  /** A subshell group `( … )` or a simple command. */
  private parseUnit(pipeFrom: number[] | null): number[] {
    if (!this.isOp(this.peek(), "(")) return this.parseSimple(pipeFrom);
    this.pos++;
    this.hasSubshell = true;
    const inner = this.parseNested();
    if (inner.length === 0) throw syntax("empty subshell `()`");
    const redirects: Redirect[] = [];
    for (;;) {
      const fd = this.redirectFd();
      if (fd === null) break;
      redirects.push(this.parseRedirect(fd, [], []));
    }
    if (this.peek()?.kind === "word") throw syntax(`unexpected word ${JSON.stringify(this.peek()!.value)} after \`)\``);
    for (const i of inner) {
      // A group's redirection applies to every command inside it.
      this.parts[i].redirects.push(...redirects);
      if (pipeFrom) {
        this.parts[i].pipedFromPrevious = true;
        this.parts[i].inputFrom.push(...pipeFrom);
      }
    }
    return inner;
  }

  /** After an opening `(`, `$(` or `<(`: the list up to and including its `)`. */
  private parseNested(): number[] {
    // Bounded so that `((((…` thousands deep is a parse error, not a stack overflow.
    if (++this.nesting > MAX_NESTING) throw new CommandSyntaxError("too_deep", "the command nests parentheses too deeply");
    const inner = this.parseList(true);
    this.pos++; // the `)` parseList stopped at
    this.nesting--;
    return inner;
  }

  /** At a redirection (optionally `2>`-style): its fd (undefined when none), else null. Advances past the fd. */
  private redirectFd(): string | undefined | null {
    const t = this.peek();
    if (t?.kind === "op" && REDIRECTS.has(t.value)) return undefined;
    const next = this.tokens[this.pos + 1];
    if (t?.kind === "word" && /^\d+$/.test(t.value) && next?.kind === "op" && REDIRECTS.has(next.value)) {
      this.pos++;
      return t.value;
    }
    return null;
  }

  /** `inputs`/`feeds` collect process substitutions used as a target (`> >(sh)` feeds sh). */
  private parseRedirect(fd: string | undefined, inputs: number[], feeds: number[]): Redirect {
    const op = this.tokens[this.pos++].value;
    const next = this.peek();
    if (next?.kind === "op" && (next.value === "<(" || next.value === ">(")) {
      this.pos++;
      this.hasSubshell = true;
      (next.value === "<(" ? inputs : feeds).push(...this.parseNested());
      return this.record({ op, fd, target: `${next.value}…)` });
    }
    if (next?.kind !== "word") throw syntax(`redirection ${op} has no target`);
    this.pos++;
    return this.record({ op, fd, target: next.value });
  }

  private record(r: Redirect): Redirect {
    this.redirects.push(renderRedirect(r));
    return r;
  }

  /** Appends parts parsed from a string (`sh -c`, `$(…)` in quotes); returns their indices. */
  private parseText(text: string, inherit: number[]): number[] {
    const sub = new Parser(tokenize(text), this.depth + 1);
    sub.parseList(false);
    const offset = this.parts.length;
    for (const p of sub.parts) {
      this.parts.push({ ...p, inputFrom: [...p.inputFrom.map((i) => i + offset), ...inherit] });
    }
    this.hasSubshell ||= sub.hasSubshell;
    this.redirects.push(...sub.redirects);
    return sub.parts.map((_, i) => i + offset);
  }

  private parseSimple(pipeFrom: number[] | null): number[] {
    const words: string[] = [];
    const assignments: string[] = [];
    const redirects: Redirect[] = [];
    const inputs: number[] = [...(pipeFrom ?? [])];
    const feeds: number[] = [];
    const before = this.parts.length;
    for (let t = this.peek(); t !== undefined; t = this.peek()) {
      if (t.kind === "word") {
        this.pos++;
        let word = t.value;
        for (const inner of embeddedSubstitutions(word)) {
          this.hasSubshell = true;
          inputs.push(...this.parseText(inner, []));
        }
        if (word.endsWith("$") && this.isOp(this.peek(), "(")) {
          this.pos++;
          this.hasSubshell = true;
          inputs.push(...this.parseNested());
          word = `${word.slice(0, -1)}$(…)`;
        }
        if (words.length === 0 && isAssignment(word)) assignments.push(word);
        else words.push(word);
      } else if (REDIRECTS.has(t.value)) {
        // `2>&1`: shell-quote hands us the fd as a word of its own.
        const fd = words.length > 0 && /^\d+$/.test(words[words.length - 1]) ? words.pop() : undefined;
        redirects.push(this.parseRedirect(fd, inputs, feeds));
      } else if (t.value === "<(" || t.value === ">(") {
        this.pos++;
        this.hasSubshell = true;
        const inner = this.parseNested();
        (t.value === "<(" ? inputs : feeds).push(...inner);
        words.push(`${t.value}…)`);
      } else if (t.value === "(" && words.length === 1 && assignments.length === 0 && this.isOp(this.tokens[this.pos + 1], ")")) {
        return this.functionDefinition(words[0]);
      } else if (t.value === "(") {
        throw syntax("unexpected `(` inside a command");
      } else break;
    }
    while (words.length > 0 && LEADING_KEYWORDS.has(words[0])) words.shift();
    if (words.length === 1 && CLOSING_KEYWORDS.has(words[0]) && assignments.length === 0 && redirects.length === 0) {
      return this.parts.slice(before).map((_, i) => before + i);
    }
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) {
      if (this.parts.length > before) return this.parts.slice(before).map((_, i) => before + i);
      throw syntax("empty command (two operators in a row?)");
    }
    const index = this.addPart({ argv: words, assignments, redirects, pipedFromPrevious: pipeFrom !== null, inputFrom: inputs });
    for (const f of feeds) this.parts[f].inputFrom.push(index);
    return this.parts.slice(before).map((_, i) => before + i);
  }

  /** A literal argv (run without a shell): the command and, through its wrappers, what it runs. */
  addCommand(argv: string[]): void {
    this.addPart({ argv, assignments: [], redirects: [], pipedFromPrevious: false, inputFrom: [] }, 0, true);
  }

  /**
   * Adds a part and, recursively, the commands it runs; returns the part's index. `literal` parts come
   * from an argv, not from shell text: their words are shown quoted as a shell would need them.
   */
  private addPart(p: Omit<CommandPart, "text">, wrapDepth = 0, literal = false): number {
    if (wrapDepth > MAX_NESTING) throw new CommandSyntaxError("too_deep", "the command nests wrappers too deeply");
    const words = [...p.assignments, ...p.argv];
    const text = [literal ? quoteWords(words) : renderWords(words), ...p.redirects.map(renderRedirect)].filter((s) => s !== "").join(" ");
    const index = this.parts.push({ ...p, text }) - 1;
    const inners = innerCommands(p.argv);
    const hereString = p.redirects.find((r) => r.op === "<<<");
    // `bash <<< "cmd"` reads its commands from the here-string.
    if (inners.length === 0 && hereString && isShell(programName(p.argv[0]))) inners.push({ kind: "text", text: hereString.target });
    for (const inner of inners) {
      if (inner.kind === "text") this.parseText(inner.text, p.inputFrom);
      else {
        const assignments = [...p.assignments, ...inner.assignments];
        const cwd = inner.cwd === undefined || path.posix.isAbsolute(inner.cwd) ? (inner.cwd ?? p.cwd) : path.posix.join(p.cwd ?? ".", inner.cwd);
        const part = { argv: inner.argv, assignments, redirects: [], pipedFromPrevious: p.pipedFromPrevious, inputFrom: [...p.inputFrom], wrapped: true };
        this.addPart(cwd === undefined ? part : { ...part, cwd }, wrapDepth + 1, literal);
      }
    }
    return index;
  }

  /**
   * `name() { body }`: a part `function name { body… }` (so a rule can see a self-calling body, the
   * fork bomb), then the body is parsed as ordinary commands by the caller's loop.
   */
  private functionDefinition(name: string): number[] {
    this.pos += 2; // `(` `)`
    const open = this.peek();
    let end = this.pos + 1;
    if (open?.kind === "word" && open.value === "{") {
      for (let depth = 1; end < this.tokens.length && depth > 0; end++) {
        const t = this.tokens[end];
        if (t.kind === "word" && t.value === "{") depth++;
        if (t.kind === "word" && t.value === "}") depth--;
      }
    } else throw syntax(`function ${name} needs a { … } body`);
    const body = this.tokens.slice(this.pos + 1, end - 1).map((t) => t.value);
    const before = this.parts.length;
    this.addPart({ argv: ["function", name, "{", ...body, "}"], assignments: [], redirects: [], pipedFromPrevious: false, inputFrom: [] });
    this.bodyFollows = true;
    return [before];
  }
}
