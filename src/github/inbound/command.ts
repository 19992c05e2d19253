/**
 * The `/agent …` command language. Pure: text in, command out. Only the first `/agent` line of a
 * comment counts, so quoting an earlier command in a reply (`> /agent approve`) never re-issues it.
 */
export type AgentCommand =
  | { kind: "start"; task: string | null }
  /** `executableConfig`: `/agent approve executable-config`, which approves a batch's executable configuration too. */
  | { kind: "approve"; ref: string | null; executableConfig?: true; integrity?: true }
  | { kind: "deny"; reason: string }
  | { kind: "revise"; feedback: string }
  | { kind: "stop" }
  | { kind: "status" }
  | { kind: "retry" }
  /** `/agent budget`: the spend against the operator's ceilings; `/agent budget +<usd>`: raise them for this session. */
  | { kind: "budget"; raiseUsd: number | null }
  | { kind: "help"; why: string };

const LINE = /^\/agent(?:[ \t]+(.*))?$/;
/** An approval may name what it approves: a prefix of the plan hash or batch digest. */
const REF = /^[0-9a-f]{6,64}$/;

/** A code fence as Markdown has it: up to 3 spaces, then 3+ backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The index of the first line that is an `/agent` command, or -1. A line inside a fenced code block
 * is shown, not said ("to approve, write ```/agent approve```" approves nothing); an unclosed fence
 * runs to the end of the comment, as GitHub renders it.
 */
function commandIndex(lines: string[]): number {
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const f = FENCE.exec(lines[i]);
    if (fence !== null) {
      // Closed by the same character, at least as long, with nothing after it.
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && f[2].trim() === "") fence = null;
      continue;
    }
    // A backtick fence's info string may not contain a backtick (that is inline code instead).
    if (f && !(f[1][0] === "`" && f[2].includes("`"))) {
      fence = f[1];
      continue;
    }
    if (LINE.test(lines[i].trim())) return i;
  }
  return -1;
}

/** The text after `/agent` on the first line that starts with it, or null when there is none. */
export function findAgentLine(body: string): string | null {
  const lines = body.split(/\r?\n/);
  const at = commandIndex(lines);
  return at < 0 ? null : (LINE.exec(lines[at].trim())?.[1] ?? "").trim();
}

/**
 * Parses a whole comment body. The remainder of the comment after the command line is kept as the
 * reason/feedback/task continuation, because maintainers write multi-line feedback.
 */
export function parseCommand(body: string): AgentCommand | null {
  const lines = body.split(/\r?\n/);
  const at = commandIndex(lines);
  if (at < 0) return null;
  const head = (LINE.exec(lines[at].trim())?.[1] ?? "").trim();
  const rest = lines
    .slice(at + 1)
    .join("\n")
    .trim();
  const [verb = "", ...words] = head.split(/\s+/);
  const arg = [words.join(" "), rest].filter((s) => s.length > 0).join("\n");
  switch (verb.toLowerCase()) {
    case "":
      return { kind: "help", why: "no command given" };
    case "fix":
      // `/agent fix this` means "the issue itself is the task"; `/agent fix the parser` is a task.
      return /^this\.?$/i.test(words.join(" ").trim()) && rest === "" ? { kind: "start", task: null } : { kind: "start", task: head };
    case "approve":
      if (words[0]?.toLowerCase() === EXECUTABLE_CONFIG) return approveExecutableConfig(words.slice(1), rest);
      if (words[0]?.toLowerCase() === INTEGRITY) return approveIntegrity(words.slice(1), rest);
      if (arg === "") return { kind: "approve", ref: null };
      if (words.length === 1 && rest === "" && REF.test(words[0].toLowerCase())) return { kind: "approve", ref: words[0].toLowerCase() };
      return { kind: "help", why: "`approve` takes no text (optionally the short hash it approves)" };
    case "deny":
      return arg ? { kind: "deny", reason: arg } : { kind: "help", why: "`deny` needs a reason" };
    case "revise":
      return arg ? { kind: "revise", feedback: arg } : { kind: "help", why: "`revise` needs feedback" };
    case "stop":
    case "status":
    case "retry":
      // Lines after the command are commentary here ("/agent stop\nthis went wrong").
      return words.length === 0 ? { kind: verb.toLowerCase() as "stop" | "status" | "retry" } : { kind: "help", why: `\`${verb}\` takes no arguments` };
    case "budget":
      return budgetCommand(words, rest);
    case "help":
      return { kind: "help", why: "help requested" };
    default:
      return { kind: "start", task: [head, rest].filter(Boolean).join("\n") };
  }
}

/** At most this much in one raise: a slip of the keyboard (`+1000000`) is not a budget. */
const MAX_RAISE_USD = 10_000;

/** `/agent budget` or `/agent budget +<usd>` (a positive amount of dollars, cents at most). */
function budgetCommand(words: string[], rest: string): AgentCommand {
  if (words.length === 0) return { kind: "budget", raiseUsd: null };
  const m = /^\+\$?(\d{1,5}(?:\.\d{1,2})?)$/.exec(words[0]);
  const usd = m ? Number(m[1]) : NaN;
  if (words.length === 1 && rest === "" && usd > 0 && usd <= MAX_RAISE_USD) return { kind: "budget", raiseUsd: usd };
  return { kind: "help", why: `\`budget\` takes nothing, or \`+<usd>\` (more than 0, at most ${MAX_RAISE_USD})` };
}

const EXECUTABLE_CONFIG = "executable-config";
const INTEGRITY = "integrity";

/** `/agent approve integrity [ref]`: the test_integrity request, named so that nobody approves weakened tests by habit. */
function approveIntegrity(words: string[], rest: string): AgentCommand {
  if (rest === "" && words.length === 0) return { kind: "approve", ref: null, integrity: true };
  if (rest === "" && words.length === 1 && REF.test(words[0].toLowerCase())) return { kind: "approve", ref: words[0].toLowerCase(), integrity: true };
  return { kind: "help", why: "`approve integrity` takes no text (optionally the short hash of the request)" };
}

/** `/agent approve executable-config [ref]`: said in words, since no label or plain approval gives it. */
function approveExecutableConfig(words: string[], rest: string): AgentCommand {
  if (rest === "" && words.length === 0) return { kind: "approve", ref: null, executableConfig: true };
  if (rest === "" && words.length === 1 && REF.test(words[0].toLowerCase())) return { kind: "approve", ref: words[0].toLowerCase(), executableConfig: true };
  return { kind: "help", why: "`approve executable-config` takes no text (optionally the short hash of the batch)" };
}

export const HELP_TEXT = [
  "Patchgate commands (write access required):",
  "",
  "- `/agent fix this` — work on this issue; `/agent <task>` — work on the given task",
  "- `/agent approve` — approve the current plan, the pending batch of writes (its executable configuration excepted) or the waiting grant request",
  "- `/agent approve executable-config` — approve the pending batch including the executable configuration it lists apart",
  "- `/agent approve integrity` — publish the change although it weakens the tests as the test_integrity request lists (`/agent deny <reason>` sends it back)",
  "- `/agent deny <reason>` — refuse the pending batch (or grant request); the reason goes back to the agent",
  "- `/agent revise <feedback>` — send the plan back with feedback",
  "- `/agent stop` — cancel the session; `/agent status` — where it stands; `/agent retry` — restart from the last checkpoint",
  "- `/agent budget` — the spend against the operator's monthly ceilings; `/agent budget +<usd>` — raise them for this session (a parked one goes on)",
  "",
  "Labels: `agent` (start), `agent:plan-approved`, `agent:writes-approved` (approves every write for this session), `agent:grant-approved` (the waiting grant request, for this session).",
].join("\n");
