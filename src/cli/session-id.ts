import type { SessionStore } from "../store/types.js";
import { UsageError } from "./usage-error.js";

/**
 * The session a user means: the full id, or any unambiguous prefix of it (the branch name
 * `patchgate/<first 8>` shows one). Two sessions sharing the prefix is a usage error listing them.
 */
export async function resolveSessionId(store: SessionStore, given: string, where: string): Promise<string> {
  const sessions = await store.list();
  if (sessions.some((s) => s.id === given)) return given;
  const matches = given === "" ? [] : sessions.filter((s) => s.id.startsWith(given));
  if (matches.length === 1) return matches[0].id;
  if (matches.length === 0) throw new UsageError(`no session ${given} in ${where} (see: patchgate list)`);
  const shown = matches.slice(0, 10).map((s) => `  ${s.id}  ${s.phase}`);
  throw new UsageError(
    `session prefix ${given} is ambiguous; it matches ${matches.length} sessions:\n${shown.join("\n")}${matches.length > 10 ? "\n  …" : ""}`,
  );
}
