import { filesWithSecrets } from "../safety/patch-secrets.js";
import type { SessionState } from "../session/state.js";
import type { DiffInfo } from "../session/types.js";
import { publicationRefusal } from "./publication-check.js";
import type { Workspace } from "../workspace/types.js";

/**
 * The work so far of a session the agent reported blocked, judged for an untested push: the same
 * guard as finish (publish/publication-check.ts) without the test gate, plus a scan of the added lines
 * for anything Patchgate would redact. Every change in it passed the write policy and its approvals;
 * this checks that the tree to push is exactly the ledger's and touches nothing a publish may not.
 */
export type BlockedWorkVerdict = { ok: true; tree: string; diff: DiffInfo } | { ok: false; why: string };

export async function judgeBlockedWork(
  ws: Workspace,
  s: SessionState,
  protectedPaths: string[],
  secrets: readonly string[],
  executableExtra: readonly string[] = [],
): Promise<BlockedWorkVerdict> {
  const refused = await publicationRefusal(ws, s, protectedPaths, executableExtra);
  if (refused) return { ok: false, why: refused.message.replace(/^finish refused: /, "") };
  const diff = await ws.diff(s.publishablePaths);
  if (diff.filesChanged === 0) return { ok: false, why: "the work so far changes no file" };
  const leaked = filesWithSecrets(diff.patch, secrets);
  if (leaked.length > 0)
    return { ok: false, why: `the change to ${leaked.join(", ")} holds what looks like a secret, and untested work is never pushed with one` };
  return { ok: true, tree: await ws.publishedTree(s.publishablePaths), diff };
}

/** The failing tests of the session's last run, as the runners named them; null when unknown. */
export function failingNow(s: SessionState): string[] | null {
  const last = s.testRuns.at(-1);
  return last ? (last.failing ?? null) : null;
}

/** The commit message of untested work: says so first, and names what failed. Model text comes inert from the caller. */
export function untestedCommitMessage(s: SessionState, title: string, trailer: string): string {
  const failing = failingNow(s);
  const which = failing && failing.length > 0 ? ` (failing: ${failing.slice(0, 10).join(", ")}${failing.length > 10 ? ", …" : ""})` : "";
  return `Untested work so far: ${title}\n\nThe agent reported that it cannot finish; the tests did not pass on this tree${which}. This commit is not a result: it is kept so that the work can be continued or reviewed.\n\n${trailer}`;
}
