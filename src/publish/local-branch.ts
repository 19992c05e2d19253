import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { publication, publishableOrFail } from "./publish-guard.js";
import type { BlockedWork } from "../session/types.js";
import type { GitWorkspace } from "../workspace/git-workspace.js";
import { failingNow, judgeBlockedWork, untestedCommitMessage } from "./blocked-work.js";
import { recordReceipt, type ReceiptSigner } from "../receipt/record-receipt.js";

export interface LocalPublishOptions {
  /** Branch prefix; the session id's first 8 characters complete it. */
  prefix: string;
  author: { name: string; email: string };
  /** Last line of the commit message, e.g. "Patchgate session <id>". */
  trailer: string;
  /** Signs a receipt of the result commit, kept as its git note (src/receipt/). */
  receipt?: ReceiptSigner;
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
  if (opts.receipt) await recordReceipt(ledger, ws.root, commit, "result", opts.receipt);
  await ledger.append({ type: "published", branch, commit, tree: await ws.treeOf(commit) });
}

/**
 * The untested work so far of a session the agent reported blocked, committed on the session's
 * local branch (`<prefix><id>-untested`) after the same guard as a push (publish/blocked-work.ts);
 * `session_blocked` records where it is, or why it was not kept.
 */
export async function keepBlockedWorkLocally(
  ledger: Ledger,
  ws: Workspace,
  opts: LocalPublishOptions & { protectedPaths: string[]; secrets: readonly string[] },
): Promise<void> {
  const s = ledger.state;
  const verdict = await judgeBlockedWork(ws, s, opts.protectedPaths, opts.secrets);
  let work: BlockedWork = { pushed: false, why: verdict.ok ? "" : verdict.why };
  if (verdict.ok) {
    await ledger.append({ type: "diff_updated", diff: verdict.diff });
    const branch = `${opts.prefix}${s.sessionId.slice(0, 8)}-untested`;
    const message = untestedCommitMessage(s, s.task.title, opts.trailer);
    // A run that died after committing commits the same tree again: git makes it the same commit on the branch's head.
    const git = ws as Workspace & Partial<Pick<GitWorkspace, "branchHead" | "commitTree">>;
    const head = await git.branchHead?.(branch);
    const commit =
      head && (await git.commitTree?.(head)) === verdict.tree
        ? head
        : await ws.commit({ branch, message, author: opts.author, paths: s.publishablePaths, expectTree: verdict.tree });
    work = { pushed: true, branch, commit, failing: failingNow(s) };
  }
  await ledger.append({ type: "session_blocked", reason: "reported_by_agent", message: s.blockReport ?? "", work });
}
