import type { Ledger } from "../store/ledger.js";
import type { CheckRunPublisher } from "./check-run.js";
import type { PushableWorkspace, SessionWork } from "./deps.js";
import { authFor, remoteUrl } from "./git-remote.js";
import { noreply } from "./identity.js";
import { ensurePullRequest, markReadyForReview } from "./pull-request.js";
import { doneComment, planComment, pullRequestBody, shortHash } from "./render.js";
import { postComment } from "./replies.js";
import { inert } from "./inert.js";
import { publication } from "../agent/publish-guard.js";

/**
 * The two publications of a session: the plan (a branch with an empty commit and a draft PR) and
 * the result (the real commit, the PR ready for review). Each step adopts what a previous attempt
 * already did, so `/agent retry` after a crash in the middle finishes instead of duplicating.
 */
export function branchFor(issue: number): string {
  return `patchgate/issue-${issue}`;
}

async function push(jc: SessionWork, ws: PushableWorkspace, branch: string): Promise<void> {
  // The branch is Patchgate's own; a rebuilt workspace recreates it from the base, hence force.
  const r = await ws.push({ remote: remoteUrl(jc.deps.gitBase, jc.delivery.repo), branch, auth: authFor(jc.token), force: true });
  if (!r.ok) throw new Error(`git push of ${branch} failed: ${r.stderr.trim().split("\n").at(-1) ?? ""}`);
  jc.deps.log(`pushed ${branch}`);
}

async function followHead(jc: SessionWork, checkRun: CheckRunPublisher, sha: string): Promise<void> {
  const { id, created } = await checkRun.moveTo(sha);
  jc.deps.log(`check run ${id} ${created ? "moved to" : "already on"} ${sha.slice(0, 7)}, the PR's head`);
}

/** The PR's title and body, as the outbound gate will shape them (redacted, inert, capped). */
function pullText(s: Ledger["state"], issue: number, branch: string): { branch: string; title: string; body: string } {
  return { branch, title: `Patchgate: ${s.task.title}`, body: pullRequestBody(s, issue) };
}

/**
 * A commit message is published with the push. Model text in it goes through the outbound gate and
 * is made inert: in a commit reaching the default branch, "fixes #12" would close issue 12. Only our
 * `Resolves #<issue>` (added by the caller, outside this function) is a live reference.
 */
function commitText(jc: SessionWork, text: string): string {
  return jc.outbound.commitMessage(inert(text));
}

export async function publishPlan(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, checkRun: CheckRunPublisher): Promise<void> {
  const s = ledger.state;
  const issue = s.task.source.issueNumber ?? 0;
  const branch = branchFor(issue);
  const hash = s.planHash ?? "";
  const author = await jc.identity.get(jc.octokit);
  const sha = await ws.commit({ branch, message: `Plan ${shortHash(hash)} for #${issue}: ${commitText(jc, s.plan?.summary.split("\n")[0] ?? "")}\n\nPatchgate-Plan: ${hash}`, author, allowEmpty: true, paths: [] });
  await push(jc, ws, branch);
  // The PR shows the checks of its head: the session's check run follows the push (with the button).
  await followHead(jc, checkRun, sha);
  // A review or label on this commit approves exactly this plan.
  await jc.deps.store.putEffect(ledger.sessionId, `plan-commit:${sha}`, hash);
  const pr = await ensurePullRequest(jc.octokit, jc.outbound, jc.deps.store, ledger.sessionId, jc.delivery.repo, pullText(s, issue, branch));
  await jc.index.linkPull(jc.delivery.repo, pr.number, issue);
  jc.deps.log(`${pr.created ? "opened draft" : "updated"} PR #${pr.number} with plan ${shortHash(hash)}`);
  await postComment(jc, issue, ledger.sessionId, `plan-${shortHash(hash)}`, planComment(s, pr.url));
}

/**
 * The result is committed once and then pushed. Its sha is recorded before the push, so a
 * publication that died after committing adopts the commit (pushing it, a no-op when it is already
 * there) instead of committing the same tree again, which git refuses as empty. A clone rebuilt
 * elsewhere has no such branch: it commits anew, and that push replaces whatever the first one did.
 */
const RESULT_COMMIT = "result_commit";

async function resultCommit(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, branch: string, commit: () => Promise<string>): Promise<string> {
  const known = await jc.deps.store.getEffect(ledger.sessionId, RESULT_COMMIT);
  if (known) {
    const r = await ws.push({ remote: remoteUrl(jc.deps.gitBase, jc.delivery.repo), branch, auth: authFor(jc.token), force: true }).catch(() => null);
    if (r?.ok && r.commit === known) {
      jc.deps.log(`pushed ${branch} (the result committed before)`);
      return known;
    }
  }
  const sha = await commit();
  await jc.deps.store.putEffect(ledger.sessionId, RESULT_COMMIT, sha);
  await push(jc, ws, branch);
  return sha;
}

export async function publishResult(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, checkRun: CheckRunPublisher): Promise<void> {
  const s = ledger.state;
  const issue = s.task.source.issueNumber ?? 0;
  const branch = branchFor(issue);
  const requester = JSON.parse((await jc.deps.store.getEffect(ledger.sessionId, "requester")) ?? "null") as { login: string; id: number } | null;
  const author = await jc.identity.get(jc.octokit);
  const summary = s.finishSummary ?? "";
  const sha = await resultCommit(jc, ledger, ws, branch, () =>
    ws.commit({
      branch,
      message: `${commitText(jc, s.task.title)}\n\n${commitText(jc, summary)}\n\nResolves #${issue}.`,
      author,
      coAuthors: requester ? [noreply(requester.login, requester.id)] : [],
      ...publication(s),
    }),
  );
  await followHead(jc, checkRun, sha);
  const pr = await ensurePullRequest(jc.octokit, jc.outbound, jc.deps.store, ledger.sessionId, jc.delivery.repo, pullText(s, issue, branch));
  await jc.index.linkPull(jc.delivery.repo, pr.number, issue);
  await markReadyForReview(jc.octokit, pr.nodeId);
  jc.deps.log(`PR #${pr.number} ready for review`);
  await ledger.append({ type: "published", branch, commit: sha, url: pr.url });
  await checkRun.complete();
  await postComment(jc, issue, ledger.sessionId, "done", doneComment(ledger.state, pr.url));
}
