import type { SessionState } from "../session/state.js";
import { executableConfigPath } from "../policy/executable-config.js";
import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { FatalError } from "../errors/index.js";

/** The tree about to be published is not the one the test gate accepted, or holds unapproved executable configuration. Fatal: nothing is pushed. */
class PublicationRefusedError extends FatalError {
  readonly kind = "publication_refused";
  constructor(
    readonly accepted: string | null,
    readonly actual: string,
    readonly unapproved: readonly string[] = [],
  ) {
    super(
      unapproved.length > 0
        ? `the change holds executable configuration no human approved as such (${unapproved.join(", ")}): nothing was published`
        : `the workspace changed after finish was accepted (accepted tree ${accepted?.slice(0, 12) ?? "none"}, now ${actual.slice(0, 12)}): nothing was published`,
    );
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
  if (state.finishedTree === null || actual !== state.finishedTree) throw new PublicationRefusedError(state.finishedTree, actual);
  const unapproved = unapprovedExecutableConfig(state);
  if (unapproved.length > 0) throw new PublicationRefusedError(state.finishedTree, actual, unapproved);
}

/**
 * Executable configuration among the paths finish accepted that no human approved as such (the
 * ledger's record of its approved content, policy/executable-approval.ts): finish refuses these already;
 * this holds at the last moment even if that check, or a rule before it, was wrong.
 */
function unapprovedExecutableConfig(state: SessionState): string[] {
  const extra = extraGlobs(state.repoConfig);
  const paths = state.finishedPaths ?? state.publishablePaths;
  const approved = (p: string) => state.executableConfigWrites[p] !== undefined && state.executableConfigWrites[p] === state.writtenHashes[p];
  return paths.filter((p) => executableConfigPath(p, extra) !== null && !approved(p));
}

/** The repository's extra globs from the session's config snapshot (plain JSON: the CLI records none). */
function extraGlobs(config: Record<string, unknown> | null): string[] {
  const globs = (config?.policy as { executable_config?: unknown } | undefined)?.executable_config;
  return Array.isArray(globs) ? globs.filter((g): g is string => typeof g === "string") : [];
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
    if (!PublicationRefusedError.isInstance(e)) throw e;
    await ledger.append({ type: "session_failed", reason: "publish_failed", message: e.message });
    return false;
  }
}
