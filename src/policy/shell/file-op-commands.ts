import { programName } from "./command-facts.js";
import type { ActionRequest } from "../types.js";

/**
 * Commands that delete or rename files, which the file tools do as writes. The policy judges such a
 * command as it judges any other (it asks, or is refused when nobody can answer); this only tells the
 * model the file operation it meant exists. Recognised by the plain argv: a hint, never a verdict.
 */
const DELETERS = new Set(["rm", "unlink"]);
const MOVERS = new Set(["mv"]);

function fileOpOf(argv: readonly string[]): "delete" | "move" | null {
  const program = programName(argv[0]);
  if (DELETERS.has(program)) return "delete";
  if (MOVERS.has(program)) return "move";
  if (program === "git") {
    const sub = gitSubcommand(argv.slice(1));
    if (sub === "rm") return "delete";
    if (sub === "mv") return "move";
  }
  return null;
}

/** The first word after git's own options (`-C dir` and `-c key=value` take the next word). */
function gitSubcommand(words: readonly string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "-C" || words[i] === "-c") i++;
    else if (!words[i].startsWith("-")) return words[i];
  }
  return undefined;
}

/** A sentence added to a refused or denied command that deletes or moves files; "" for any other request. */
function fileToolHint(request: ActionRequest): string {
  if (request.kind !== "command") return "";
  const op = fileOpOf(request.argv);
  if (op === null) return "";
  const tool = op === "delete" ? "delete_file {path}" : "move_file {from, to}";
  return `To ${op} a file use ${tool}: it is judged as a write (approved with the other writes, or in advance when writes are pre-approved), which a command never is.`;
}

/** `message`, and the hint after it when there is one. */
export function withFileToolHint(message: string, request: ActionRequest): string {
  const hint = fileToolHint(request);
  return hint === "" ? message : `${message}. ${hint}`;
}
