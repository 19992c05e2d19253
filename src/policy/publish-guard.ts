import type { SessionState } from "../session/state.js";
import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";

/** The tree about to be published is not the one the test gate accepted. Fatal: nothing is pushed. */
class TreeChangedError extends Error {
  readonly name = "TreeChangedError";
  constructor(
    readonly accepted: string | null,
    readonly actual: string,
  ) {
    super(
      `the workspace changed after finish was accepted (accepted tree ${accepted?.slice(0, 12) ?? "none"}, now ${actual.slice(0, 12)}): nothing was published`,
    );
  }
  static isInstance(e: unknown): e is TreeChangedError {
    return e instanceof Error && e.name === "TreeChangedError";
  }
}

/**
 * Every publisher calls this right before committing: the test gate judged one published tree (base +
 * the ledger's publishable paths), and only that tree may leave. The loop already stops calls after
 * finish; this catches anything else (a process left behind, a bug) at the last moment. The commit
 * itself is then made with `publication(state)`, which builds that same tree and refuses any other.
 */
async function assertPublishingTestedTree(state: SessionState, ws: Workspace): Promise<void> {
  const actual = await ws.publishedTree(state.publishablePaths);
  if (state.finishedTree === null || actual !== state.finishedTree) throw new TreeChangedError(state.finishedTree, actual);
}

/** What a publisher commits: the ledger's paths, and the tree the test gate accepted as a check. */
export function publication(state: SessionState): { paths: readonly string[]; expectTree?: string } {
  return state.finishedTree === null ? { paths: state.publishablePaths } : { paths: state.publishablePaths, expectTree: state.finishedTree };
}

/**
 * For publishers: true when the tree is the tested one; otherwise the session is failed as
 * `publish_failed` (visible like any failure) and false is returned, so nothing is committed.
 */
export async function publishableOrFail(ledger: Ledger, ws: Workspace): Promise<boolean> {
  try {
    await assertPublishingTestedTree(ledger.state, ws);
    return true;
  } catch (e) {
    if (!TreeChangedError.isInstance(e)) throw e;
    await ledger.append({ type: "session_failed", reason: "publish_failed", message: e.message });
    return false;
  }
}
