import type { BranchLease } from "../../session/state.js";
import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Ledger } from "../../store/ledger.js";
import type { GitBranchRemote } from "../../workspace/git-branch-remote.js";
import { ApiBranchRemote, ForceNeeded } from "./api-branch-remote.js";
import { createApiCommit } from "./api-commit.js";
import { pushUnderLease, type LeaseOutcome } from "../../publish/branch-lease.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";

/**
 * How a session's commit reaches its branch. Through the Git Data API when it can (./api-commit.ts:
 * GitHub signs the commit and shows it verified, the app as author), the ref moved under the same
 * lease as a git push (./api-branch-remote.ts). With git, and so unsigned, only where the API cannot
 * do it safely, and then the reason is recorded and shown on the check run:
 * - the branch must be moved over commits (a new session replacing what an earlier one pushed): the
 *   refs API can force a move only without an expected value, which is no lease;
 * - the API refuses the repository (a GitHub Enterprise Server without it, a 403/404 for git data).
 * A tree GitHub builds differently from the tested one is never published at all.
 */
export type SignedPush = { out: LeaseOutcome; via: "api" | "git"; commit: string; unsigned?: string };

const apiUnusable = (e: unknown): number | null => {
  const s = (e as { status?: number }).status;
  return s === 403 || s === 404 || s === 501 ? s : null;
};

/**
 * What goes to GitHub about a commit before the branch moves to it (its receipt note): `commit` is
 * what the branch will hold, `local` its twin in the clone (same parent, same tree).
 */
export type BeforeMove = (ws: PushableWorkspace, commit: string, local: string) => Promise<void>;

export async function pushCommit(
  jc: SessionWork,
  ledger: Ledger,
  ws: PushableWorkspace,
  lease: BranchLease,
  local: string,
  git: GitBranchRemote,
  beforeMove: BeforeMove = async () => {},
): Promise<SignedPush> {
  const sessionId = ledger.sessionId;
  // Recorded before the ref moves (and fenced): a holder that dies right after the move leaves a head
  // the next holder knows is ours, and one that lost the session fails here, before touching the ref.
  const intend = (commit: string) => ledger.append({ type: "branch_push_intended", branch: lease.branch, commit });
  const viaGit = async (unsigned: string): Promise<SignedPush> => {
    await beforeMove(ws, local, local);
    await intend(local);
    return { out: await pushUnderLease(git, lease, local), via: "git", commit: local, unsigned };
  };
  if (lease.head !== null && !(await git.contains(local, lease.head)))
    return viaGit("the branch had to be moved over commits Patchgate pushed before, which GitHub's refs API can do only without a lease");
  // Made once per local commit: a publication that runs again pushes the same signed commit.
  let signed = await readEffect(jc.deps.store, effect.apiCommit(sessionId, local));
  if (!signed) {
    try {
      signed = (await createApiCommit(jc.octokit, jc.delivery.repo, ws.root, local)).sha;
    } catch (e) {
      const s = apiUnusable(e);
      if (s === null) throw e;
      return viaGit(`GitHub's Git Data API answered ${s}`);
    }
    await writeEffect(jc.deps.store, effect.apiCommit(sessionId, local), signed);
    await writeEffect(jc.deps.store, effect.apiCommit(sessionId, signed), signed);
  }
  const remote = new ApiBranchRemote(jc.octokit, jc.delivery.repo, git, new Map([[signed, local]]));
  let out: LeaseOutcome;
  await beforeMove(ws, signed, local);
  await intend(signed);
  try {
    out = await pushUnderLease(remote, lease, signed);
  } catch (e) {
    if (!(e instanceof ForceNeeded)) throw e;
    return viaGit(`${e.message}, which GitHub's refs API can do only without a lease`);
  }
  if (out.kind === "pushed" && signed !== local) {
    // The clone takes GitHub's commit in place of its unsigned twin: the next commit continues it.
    await git.fetch(lease.branch);
    await ws.moveBranch(lease.branch, signed, local);
  }
  return { out, via: "api", commit: signed };
}

/**
 * The clone's `branch` put on what GitHub has before anything is committed on it. A process killed
 * after GitHub made the signed twin of the clone's head, and before the clone took it in its place,
 * left the clone on a commit GitHub never had: a commit on top would name an unknown parent (422).
 * The clone takes the twin when GitHub's branch has it (the ref moved before the kill). Otherwise the
 * ref never moved: when the twin's receipt is recorded, the clone stays on its head, so the push that
 * was cut runs again with the same twin and the same receipt (a receipt, once signed, names the one
 * commit the branch gets); without one, the clone goes back to the twin's parent, which GitHub has,
 * and commits again.
 */
export async function continueFromTwin(jc: SessionWork, ledger: Ledger, ws: PushableWorkspace, branch: string, git: GitBranchRemote): Promise<void> {
  const head = await ws.branchHead(branch);
  const twin = head && (await signedTwin(jc, ledger.sessionId, head));
  if (!head || !twin || twin === head) return;
  const onGitHub = (await git.head(branch)) !== null && (await ws.commitTree(twin)) !== null;
  if (!onGitHub && ledger.history.some((e) => e.type === "receipt_recorded" && e.commit === twin)) {
    jc.deps.log(`${branch}: the clone's ${head.slice(0, 7)} has a receipted signed twin ${twin.slice(0, 7)} not on the branch yet; pushing it again`);
    return;
  }
  const to = onGitHub ? twin : await ws.firstParent(head);
  if (!to) throw new Error(`${branch}: ${head.slice(0, 7)} has a signed twin but no parent in the clone`);
  jc.deps.log(`${branch}: the clone was left on ${head.slice(0, 7)}, which GitHub never had; continuing from ${to.slice(0, 7)}`);
  await ws.moveBranch(branch, to, head);
}

/** The signed commit made for `local`, if any (a result adopted after a crash is this one). */
export function signedTwin(jc: SessionWork, sessionId: string, local: string): Promise<string | null> {
  return readEffect(jc.deps.store, effect.apiCommit(sessionId, local));
}
