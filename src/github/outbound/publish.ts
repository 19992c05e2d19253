import type { Ledger } from "../../store/ledger.js";
import { readEffect, writeEffect, type Effect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { CheckRunPublisher } from "./check-run.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";
import { authFor, remoteUrl } from "./git-remote.js";
import { noreply } from "../identity.js";
import { ensurePullRequest, markReadyForReview } from "./pull-request.js";
import { doneComment, planComment, pullRequestBody, shortHash } from "./render.js";
import { postComment, postEndComment } from "./replies.js";
import { planRequest } from "./request-comments.js";
import { inert } from "../../safety/inert.js";
import { publication } from "../../publish/publish-guard.js";
import type { BranchLease } from "../../session/state.js";
import { nextBranchName } from "../../publish/branch-lease.js";
import { continueFromTwin, pushCommit, signedTwin, type BeforeMove } from "./signed-push.js";
import { replyInReviewThreads } from "./review-replies.js";
import { publishReceipt } from "./publish-receipt.js";

/**
 * The two publications of a session: the plan (a branch with an empty commit and a draft PR) and
 * the result (the real commit, the PR ready for review). Each step adopts what a previous attempt
 * already did, so `/agent retry` after a crash in the middle finishes instead of duplicating.
 */
export function branchFor(issue: number): string {
  return `patchgate/issue-${issue}`;
}

/** The session's branch and its lease; a ledger from before leases claims the issue's branch now. */
async function leaseOf(ledger: Ledger): Promise<BranchLease> {
  const s = ledger.state;
  if (s.lease) return s.lease;
  const branch = branchFor(s.task.source.issueNumber ?? 0);
  await ledger.append({ type: "branch_claimed", branch, head: null, ours: [] });
  return { branch, head: null, ours: [] };
}

/** What a publication did with the branch: pushed it, or rebuilt the session's change on commits someone else pushed. */
type Pushed = { kind: "pushed"; commit: string; branch: string; ws: PushableWorkspace } | { kind: "rebuilt"; ws: PushableWorkspace } | { kind: "conflict" };

/**
 * Commits (with `commit`, on the branch the lease names) and pushes under the lease: never a force
 * push. A name held by something else moves the session to the next free name; commits on the
 * session's branch that Patchgate did not make are kept: the change is rebuilt on top of them (a
 * plan is then committed again; a result goes back to the tests), or, when it does not merge, the
 * session ends `branch_conflict` and nothing is pushed.
 */
export async function pushLeased(
  jc: SessionWork,
  ledger: Ledger,
  ws: PushableWorkspace,
  commit: (ws: PushableWorkspace, branch: string) => Promise<string>,
  beforeMove?: BeforeMove,
): Promise<Pushed> {
  const original = branchFor(ledger.state.task.source.issueNumber ?? 0);
  for (let round = 0; round < 10; round++) {
    const lease = await leaseOf(ledger);
    // What this session pushed is continued, never replaced, even from a clone rebuilt elsewhere.
    const pushedHere = ledger.history.some((e) => e.type === "branch_pushed" && e.commit === lease.head);
    if (lease.head && pushedHere) await ws.continueBranch(lease.branch, lease.head);
    const remote = ws.branchRemote(remoteUrl(jc.deps.gitBase, jc.delivery.repo), authFor(jc.token));
    await continueFromTwin(jc, ledger, ws, lease.branch, remote);
    const local = await commit(ws, lease.branch);
    const { out, via, commit: sha, unsigned } = await pushCommit(jc, ledger, ws, lease, local, remote, beforeMove);
    if (out.kind === "pushed") {
      await ledger.append({ type: "branch_pushed", branch: lease.branch, commit: sha, via, ...(unsigned ? { unsigned } : {}) });
      jc.deps.log(`pushed ${lease.branch} (${via === "api" ? "signed, through the Git Data API" : `with git: ${unsigned}`})`);
      return { kind: "pushed", commit: sha, branch: lease.branch, ws };
    }
    if (out.kind === "taken") {
      const next = nextBranchName(lease.branch, original);
      jc.deps.log(`${lease.branch} belongs to something else (${out.head.slice(0, 7)}); publishing on ${next}`);
      await ledger.append({ type: "branch_claimed", branch: next, head: null, ours: [] });
      continue;
    }
    const rebuilt = await ws.rebuildOnto(lease.branch, out.head, ledger.state.publishablePaths);
    const commits = out.foreign.map((c) => c.slice(0, 7)).join(", ");
    if (!rebuilt.ok) {
      const paths = rebuilt.conflicts.length > 0 ? ` (${rebuilt.conflicts.join(", ")})` : "";
      const message = `${lease.branch} has commits Patchgate did not make (${commits}) and ${rebuilt.why}${paths}. Nothing was pushed; their work is untouched.`;
      await ledger.append({ type: "session_failed", reason: "branch_conflict", message });
      return { kind: "conflict" };
    }
    jc.deps.log(`${lease.branch} had commits Patchgate did not make (${commits}); rebuilt on ${out.head.slice(0, 7)}`);
    const republish = ledger.state.phase === "publishing";
    await ledger.append(
      { type: "branch_rebased", branch: lease.branch, onto: out.head, foreign: out.foreign },
      { type: "diff_updated", diff: await rebuilt.workspace.diff(ledger.state.publishablePaths) },
    );
    ws = rebuilt.workspace;
    if (republish) return { kind: "rebuilt", ws };
  }
  throw new Error("no branch name left to publish on");
}

export async function followHead(jc: SessionWork, checkRun: CheckRunPublisher, sha: string): Promise<void> {
  const { id, created } = await checkRun.moveTo(sha);
  jc.deps.log(`check run ${id} ${created ? "moved to" : "already on"} ${sha.slice(0, 7)}, the PR's head`);
}

/** The PR's title and body, as the outbound gate will shape them (redacted, inert, capped). */
export function pullText(s: Ledger["state"], issue: number, branch: string): { branch: string; title: string; body: string } {
  return { branch, title: `Patchgate: ${s.task.title}`, body: pullRequestBody(s, issue) };
}

/**
 * A commit message is published with the push. Model text in it goes through the outbound gate and
 * is made inert: in a commit reaching the default branch, "fixes #12" would close issue 12. Only our
 * `Resolves #<issue>` (added by the caller, outside this function) is a live reference.
 */
export function commitText(jc: SessionWork, text: string): string {
  return jc.outbound.commitMessage(inert(text));
}

/** "ended": the branch's new commits conflict with the session; it has failed and the caller says so. */
export async function publishPlan(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, checkRun: CheckRunPublisher): Promise<"published" | "ended"> {
  const s = ledger.state;
  const issue = s.task.source.issueNumber ?? 0;
  const hash = s.planHash ?? "";
  const author = await jc.identity.get(jc.octokit);
  const message = `Plan ${shortHash(hash)} for #${issue}: ${commitText(jc, s.plan?.summary.split("\n")[0] ?? "")}\n\nPatchgate-Plan: ${hash}`;
  // Adopted like a result's: a plan committed (or signed) before a kill is pushed, not committed on again.
  const planCommit = adoptingCommit(
    jc,
    ledger,
    effect.planCommit(ledger.sessionId, hash),
    (w) => w.commitTree(w.baseCommit),
    (w, branch) => w.commit({ branch, message, author, allowEmpty: true, paths: [] }),
  );
  // The receipt's note is on GitHub before the branch moves: the push's status check finds it.
  const pushed = await pushLeased(jc, ledger, ws, planCommit, (w, sha, local) => publishReceipt(jc, ledger, w, sha, "plan", local));
  if (pushed.kind !== "pushed") return "ended";
  const { commit: sha, branch } = pushed;
  // The PR shows the checks of its head: the session's check run follows the push (with the button).
  await followHead(jc, checkRun, sha);
  // A review or label on this commit approves exactly this plan.
  await writeEffect(jc.deps.store, effect.planOfCommit(ledger.sessionId, sha), hash);
  const pr = await ensurePullRequest(jc.octokit, jc.outbound, jc.deps.store, ledger.sessionId, jc.delivery.repo, pullText(s, issue, branch));
  await jc.index.linkPull(jc.delivery.repo, pr.number, issue);
  jc.deps.log(`${pr.created ? "opened draft" : "updated"} PR #${pr.number} with plan ${shortHash(hash)}`);
  await postComment(jc, issue, ledger.sessionId, planRequest(hash), planComment(ledger.state, pr.url));
  return "published";
}

/**
 * The result is committed once and then pushed. Its sha is recorded before the push, so a
 * publication that died after committing adopts the commit (it still carries the tree the tests
 * passed on) instead of committing the same tree again, which git refuses as empty. A clone rebuilt
 * elsewhere, or a change rebuilt on someone's commits, commits anew.
 */
function resultCommit(jc: SessionWork, ledger: Ledger, commit: (ws: PushableWorkspace, branch: string) => Promise<string>) {
  return adoptingCommit(jc, ledger, effect.resultCommit(ledger.sessionId), () => ledger.state.finishedTree, commit);
}

/** `commit`, or the commit recorded in `record` before when the branch is still at it (or its signed twin) with tree `tree(ws)`. */
export function adoptingCommit(
  jc: SessionWork,
  ledger: Ledger,
  record: Effect<string>,
  tree: (ws: PushableWorkspace) => string | null | Promise<string | null>,
  commit: (ws: PushableWorkspace, branch: string) => Promise<string>,
) {
  return async (ws: PushableWorkspace, branch: string): Promise<string> => {
    const known = await readEffect(jc.deps.store, record);
    const twin = known && (await signedTwin(jc, ledger.sessionId, known));
    // The commit made before, or GitHub's signed twin of it once that was pushed (by any holder).
    const made = (h: string | null) => h !== null && (h === known || h === twin);
    let head = await ws.branchHead(branch);
    if (!made(head) && known) head = await onGitHubsHead(jc, ws, branch, head, made);
    if (!made(head)) head = await backToLeaseHead(jc, ledger, ws, branch, head);
    if (made(head) && (await ws.commitTree(head!)) === (await tree(ws))) {
      jc.deps.log(`${branch}: adopting the commit made before`);
      return head!;
    }
    const sha = await commit(ws, branch);
    await writeEffect(jc.deps.store, record, sha);
    return sha;
  };
}

/**
 * The clone's branch put on GitHub's head when that is the commit made before, by a holder that died
 * after moving the ref and before recording the push, maybe on another disk: this clone never had
 * it. Committed again, the new commit would find GitHub's head unknown and rebuild the session on it.
 */
async function onGitHubsHead(jc: SessionWork, ws: PushableWorkspace, branch: string, head: string | null, made: (h: string | null) => boolean) {
  const there = await ws.branchRemote(remoteUrl(jc.deps.gitBase, jc.delivery.repo), authFor(jc.token)).head(branch);
  if (!made(there) || there === head || (await ws.commitTree(there!)) === null) return head;
  jc.deps.log(`${branch}: GitHub's head ${there!.slice(0, 7)} is the commit made before; continuing from it`);
  if (head === null) await ws.continueBranch(branch, there!);
  else await ws.moveBranch(branch, there!, head);
  return there;
}

/**
 * A new commit goes on the lease's head (or the base): what GitHub has of the branch. The clone's
 * branch can be elsewhere after a takeover: on a commit a holder killed mid-publication made and
 * nobody recorded, or on this clone's own older head while another worker pushed on. Built on, the
 * first is an empty commit (git refuses it), the second drops the other worker's push.
 */
async function backToLeaseHead(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, branch: string, head: string | null): Promise<string | null> {
  const lease = ledger.state.lease;
  const tip = lease?.branch === branch && lease.head ? lease.head : ws.baseCommit;
  if (!head || head === tip) return head;
  if ((await ws.commitTree(tip)) === null) await ws.branchRemote(remoteUrl(jc.deps.gitBase, jc.delivery.repo), authFor(jc.token)).head(branch);
  if ((await ws.commitTree(tip)) === null) return head;
  jc.deps.log(`${branch}: the clone was on ${head.slice(0, 7)}, not on the lease's ${tip.slice(0, 7)}; continuing from ${tip.slice(0, 7)}`);
  await ws.moveBranch(branch, tip, head);
  return tip;
}

/** The requester as the commit's co-author (the app is its author). */
export function coAuthorsOf(ledger: Ledger): { name: string; email: string }[] {
  const { requester, requesterId } = ledger.state.task.source;
  return requester && requesterId !== undefined ? [noreply(requester, requesterId)] : [];
}

/** "rebuilt": the branch had someone else's commits and the session is executing again on top of them. */
export async function publishResult(
  jc: SessionWork,
  ledger: Ledger,
  ws: PushableWorkspace,
  checkRun: CheckRunPublisher,
): Promise<"done" | "rebuilt" | "ended"> {
  const s = ledger.state;
  const issue = s.task.source.issueNumber ?? 0;
  const author = await jc.identity.get(jc.octokit);
  const summary = s.finishSummary ?? "";
  const message = `${commitText(jc, s.task.title)}\n\n${commitText(jc, summary)}\n\nResolves #${issue}.`;
  const coAuthors = coAuthorsOf(ledger);
  const pushed = await pushLeased(
    jc,
    ledger,
    ws,
    resultCommit(jc, ledger, (w, branch) => w.commit({ branch, message, author, coAuthors, ...publication(ledger.state) })),
    (w, commit, local) => publishReceipt(jc, ledger, w, commit, "result", local),
  );
  if (pushed.kind === "rebuilt") return "rebuilt";
  if (pushed.kind === "conflict") return "ended";
  const { commit: sha, branch } = pushed;
  await followHead(jc, checkRun, sha);
  const pr = await ensurePullRequest(jc.octokit, jc.outbound, jc.deps.store, ledger.sessionId, jc.delivery.repo, pullText(s, issue, branch));
  await jc.index.linkPull(jc.delivery.repo, pr.number, issue);
  await markReadyForReview(jc.octokit, pr.nodeId);
  jc.deps.log(`PR #${pr.number} ready for review`);
  // Before `published`: a publication that dies here runs again, and each thread is answered once.
  await replyInReviewThreads(jc, ledger, sha);
  await ledger.append({ type: "published", branch, commit: sha, url: pr.url, tree: await ws.treeOf(sha) });
  await checkRun.complete();
  await postEndComment(jc, ledger, "done", doneComment(ledger.state, pr.url));
  return "done";
}
