import { programName } from "./command-facts.js";
import { innerCommands } from "./wrappers.js";

/**
 * Predicates behind the default allow rules. An allowance is only as good as its exceptions, so each
 * names the options that would turn a reader into a writer or a runner.
 */

/** Read-only in every form: no option of theirs writes a file or runs a program. */
export const PLAIN_READERS = ["ls", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "pwd", "echo", "true"];

/** find prints; these make it delete, write, or run. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

export function findReadOnly(argv: string[]): boolean {
  return programName(argv[0]) === "find" && !argv.some((a) => FIND_ACTIONS.has(a));
}

/** `rg --pre cmd` runs cmd on every file; `--hostname-bin cmd` runs cmd once. */
export function rgReadOnly(argv: string[]): boolean {
  return programName(argv[0]) === "rg" && !argv.some((a) => /^--(pre|hostname-bin)(=|$)/.test(a));
}

/**
 * Programs that only run the literal command after their options; allowed so that the command inside
 * decides. Shells, xargs and `env -S` are not among them: what they run is not in their words.
 */
export const WRAPPERS = ["timeout", "nice", "nohup", "time", "stdbuf", "env", "setsid"];

/**
 * GNU `time -o FILE` / `--output=FILE` (or `--out FILE`, an abbreviation) writes its report to a file:
 * a write no write rule sees. Judged on every word, so `time ls -o` asks too; that only costs a question.
 */
function timeWritesFile(argv: string[]): boolean {
  return programName(argv[0]) === "time" && argv.slice(1).some((a) => /^-[apqvV]*o/.test(a) || /^--o(u(t(p(u(t)?)?)?)?)?(=|$)/.test(a));
}

export function wrapperWithCommand(argv: string[]): boolean {
  const program = programName(argv[0]);
  const inners = innerCommands(argv);
  return WRAPPERS.includes(program) && inners.length > 0 && inners.every((i) => i.kind === "argv") && !timeWritesFile(argv);
}

/** `env` or `printenv` printing the environment (not `env X=1 cmd`, which is a wrapper). */
export function printsEnvironment(argv: string[]): boolean {
  const program = programName(argv[0]);
  return program === "printenv" || (program === "env" && innerCommands(argv).length === 0);
}
