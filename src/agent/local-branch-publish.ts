import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { publication, publishableOrFail } from "../policy/publish-guard.js";

export interface LocalPublishOptions {
  /** Branch prefix; the session id's first 8 characters complete it. */
  prefix: string;
  author: { name: string; email: string };
  /** Last line of the commit message, e.g. "Patchgate session <id>". */
  trailer: string;
}

/**
 * Publishing without a remote (the CLI, the eval runner): commit the tested tree on a branch of the
 * clone and record `published`. An empty commit is allowed: a question-only task finishes with no
 * change, and the branch still records its answer (the summary).
 */
export async function publishToLocalBranch(ledger: Ledger, ws: Workspace, opts: LocalPublishOptions): Promise<void> {
  if (!(await publishableOrFail(ledger, ws))) return;
  const s = ledger.state;
  const branch = `${opts.prefix}${s.sessionId.slice(0, 8)}`;
  const commit = await ws.commit({
    branch,
    message: `${s.task.title}\n\n${s.finishSummary ?? s.task.title}\n\n${opts.trailer}`,
    author: opts.author,
    allowEmpty: true,
    ...publication(s),
  });
  await ledger.append({ type: "published", branch, commit, tree: await ws.treeOf(commit) });
}
