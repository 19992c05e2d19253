import { judgeBlockedWork, failingNow, untestedCommitMessage } from "../../publish/blocked-work.js";
import { effect } from "../../store/effects.js";
import type { RepoConfig } from "../../config/repo-config.js";
import type { BlockedWork } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import type { CheckRunPublisher } from "../outbound/check-run.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";
import { ensurePullRequest } from "../outbound/pull-request.js";
import { adoptingCommit, coAuthorsOf, commitText, followHead, pullText, pushLeased } from "../outbound/publish.js";

/**
 * "The draft PR keeps the work so far": the agent reported blocked in execute mode, so its work,
 * untested, goes to the session's branch, the draft PR opened with the plan. The tree is built from
 * the ledger (base + the publishable paths, checked against what the tools recorded) and judged
 * like a publish without the test gate (publish/blocked-work.ts). The PR stays a draft: nothing here
 * marks it ready, and its body, the commit message and the check run say the work is untested.
 *
 * The session is still live (executing, its report recorded) until `session_blocked` is appended
 * last, with where the work went: a crash anywhere before resumes here, adopts the commit it made
 * and the push it did, and ends once. Returns false when the session ended otherwise (a conflict).
 */

export async function keepBlockedWork(
  work: SessionWork,
  ledger: Ledger,
  ws: PushableWorkspace,
  checkRun: CheckRunPublisher,
  repoConfig: RepoConfig,
): Promise<boolean> {
  const s = ledger.state;
  const verdict = await judgeBlockedWork(ws, s, repoConfig.policy.protected_paths, [...work.deps.secrets, work.token], repoConfig.policy.executable_config);
  let kept: BlockedWork;
  if (!verdict.ok) {
    kept = { pushed: false, why: verdict.why };
    work.deps.log(`blocked: the work so far is not pushed (${verdict.why})`);
  } else {
    await ledger.append({ type: "diff_updated", diff: verdict.diff });
    const issue = s.task.source.issueNumber ?? 0;
    const message = untestedCommitMessage(s, commitText(work, s.task.title), `Patchgate-Untested: ${ledger.sessionId}\nRefs #${issue}.`);
    const author = await work.identity.get(work.octokit);
    const coAuthors = coAuthorsOf(ledger);
    const commit = (w: PushableWorkspace, branch: string) =>
      w.commit({ branch, message, author, coAuthors, paths: s.publishablePaths, expectTree: verdict.tree });
    const pushed = await pushLeased(
      work,
      ledger,
      ws,
      adoptingCommit(work, ledger, effect.blockedCommit(ledger.sessionId), () => verdict.tree, commit),
    );
    if (pushed.kind !== "pushed") return false;
    await followHead(work, checkRun, pushed.commit);
    // The body says "untested" while the report is recorded (render.ts), before the session ends.
    await ensurePullRequest(work.octokit, work.outbound, work.deps.store, ledger.sessionId, work.delivery.repo, pullText(ledger.state, issue, pushed.branch));
    kept = { pushed: true, branch: pushed.branch, commit: pushed.commit, failing: failingNow(s) };
    work.deps.log(`blocked: the work so far is pushed untested to ${pushed.branch} (${pushed.commit.slice(0, 7)}); the PR stays a draft`);
  }
  await ledger.append({ type: "session_blocked", reason: "reported_by_agent", message: s.blockReport ?? "", work: kept });
  return true;
}
