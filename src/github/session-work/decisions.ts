import {
  answerQuestion,
  approveGrant,
  approveIntegrity,
  approvePlan,
  approveWrites,
  autoApproveWrites,
  denyGrant,
  denyIntegrity,
  denyWrites,
  requestRevision,
} from "../../agent/approvals.js";
import { StaleApprovalError } from "../../session/errors.js";
import { approverRefusal, type ApprovalKind } from "../../policy/approval-rule.js";
import type { Approver } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import { sanitizeUntrusted } from "../../safety/sanitize.js";
import {
  currentAt,
  digestForComment,
  grantDigestForButton,
  grantDigestForComment,
  integrityDigestForButton,
  integrityDigestForComment,
  planHashForButton,
  planHashForComment,
  type RequestComments,
} from "./binding.js";
import { readEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { CommentBinding, GrantBinding, IntegrityBinding, PlanBinding } from "./route.js";
import type { JobContext } from "../deps.js";
import { drive } from "./drive.js";
import { shortHash } from "../outbound/render.js";
import { answer } from "../outbound/replies.js";
import { sessionRepoConfig } from "./repo-config.js";
import { batchRequest, grantRequest, integrityRequest, planRequest, requestCommentId } from "../outbound/request-comments.js";
import { storedPullRequest } from "../outbound/pull-request.js";

/**
 * Human decisions on a parked session, once ./route.ts has accepted them in the session's phase.
 * Each resolves what the human approved (./binding.ts), appends the decision (the ledger refuses a
 * stale one), and resumes.
 */
export type Where = { reply: number };

/** The human behind this delivery, with the GitHub object the decision comes from. */
export function approver(jc: JobContext, via: Approver["via"]): Approver {
  return { login: jc.delivery.sender.login, via, source: jc.delivery.source };
}

async function stale(jc: JobContext, ledger: Ledger, w: Where, what: string, saw: string | null, current: string | null): Promise<void> {
  await answer(
    jc,
    w.reply,
    ledger.sessionId,
    "stale",
    `That approval is for ${what} \`${saw ? shortHash(saw) : "(none)"}\`, but the current one is \`${current ? shortHash(current) : "(none)"}\`. Nothing was approved — please look at the current ${what} and approve again.`,
  );
}

/** Refuses (with a reply) an approval the repository's `approvals` rule does not take from `by`. */
async function refusedApprover(jc: JobContext, ledger: Ledger, kind: ApprovalKind, by: Approver, w: Where): Promise<boolean> {
  const why = approverRefusal(sessionRepoConfig(ledger.state), kind, by, ledger.state.task.source.requester ?? null);
  if (why === null) return false;
  jc.deps.log(`${kind} approval by @${by.login} refused: the requester may not approve`);
  await answer(jc, w.reply, ledger.sessionId, "not-requester", why);
  return true;
}

export async function approvePlanAs(jc: JobContext, ledger: Ledger, by: Approver, hash: string | null, w: Where): Promise<void> {
  if (await refusedApprover(jc, ledger, "plan", by, w)) return;
  if (!hash || hash !== ledger.state.planHash) return stale(jc, ledger, w, "plan", hash, ledger.state.planHash);
  try {
    await approvePlan(ledger, by, hash);
  } catch (e) {
    if (StaleApprovalError.isInstance(e)) return stale(jc, ledger, w, "plan", hash, ledger.state.planHash);
    throw e;
  }
  jc.deps.log(`plan ${shortHash(hash)} approved by @${by.login} (${by.via})`);
  await drive(jc, ledger, `plan approved by @${by.login}`);
}

export async function decideWrites(
  jc: JobContext,
  ledger: Ledger,
  by: Approver,
  digest: string | null,
  deny: string | null,
  w: Where,
  executableConfig = false,
): Promise<void> {
  const current = ledger.state.pending?.status === "pending" ? ledger.state.pending.digest : null;
  if (!digest || digest !== current) return stale(jc, ledger, w, "batch", digest, current);
  if (deny === null && (await refusedApprover(jc, ledger, "writes", by, w))) return;
  if (deny === null) await approveWrites(ledger, by, digest, executableConfig);
  else await denyWrites(ledger, by, digest, sanitizeUntrusted(deny));
  jc.deps.log(`batch ${shortHash(digest)} ${deny === null ? "approved" : "denied"} by @${by.login}`);
  await drive(jc, ledger, `writes ${deny === null ? "approved" : "denied"} by @${by.login}`);
}

/**
 * A test_integrity request decided by a human who was shown it: approved only in words that name it
 * (`/agent approve` while it waits, or `/agent approve integrity`), a review, or its own button; never
 * by a label or a batch's approval.
 */
export async function decideIntegrity(jc: JobContext, ledger: Ledger, by: Approver, digest: string | null, deny: string | null, w: Where): Promise<void> {
  const current = ledger.state.integrity?.status === "pending" ? ledger.state.integrity.digest : null;
  if (!digest || digest !== current) return stale(jc, ledger, w, "test_integrity request", digest, current);
  if (deny === null && (await refusedApprover(jc, ledger, "writes", by, w))) return;
  if (deny === null) await approveIntegrity(ledger, by, digest);
  else await denyIntegrity(ledger, by, digest, sanitizeUntrusted(deny));
  jc.deps.log(`test_integrity ${shortHash(digest)} ${deny === null ? "approved" : "denied"} by @${by.login}`);
  await drive(jc, ledger, `test integrity ${deny === null ? "approved" : "denied"} by @${by.login}`);
}

/**
 * The request an approval decides: the button's, by the digest prefix it carries; a review's, the one
 * waiting when it was submitted; a comment's, the one it names by a prefix of its digest, else the
 * one it saw asked for (by time, and within the second by the request comment's id).
 */
export function integrityDigestOf(jc: JobContext, ledger: Ledger, b: IntegrityBinding): Promise<string | null> {
  if (b.by === "button") return Promise.resolve(integrityDigestForButton(ledger.state, b.identifier));
  if (b.by === "review") return Promise.resolve(currentAt(ledger.history, b.at, (e) => (e.type === "integrity_requested" ? e.digest : null)));
  return integrityDigestForComment(ledger.state, ledger.history, b.ref, b.act, requestComments(jc, ledger, integrityRequest));
}

/**
 * A grant request (request_grant) decided by a human shown it: a comment while it waits, a review, the
 * `agent:grant-approved` label or its own button; never a batch's approval. With `approvals.grants:
 * not_requester` the person who asked for the session cannot approve it (the reducer holds to it too).
 */
export async function decideGrant(jc: JobContext, ledger: Ledger, by: Approver, digest: string | null, deny: string | null, w: Where): Promise<void> {
  const current = ledger.state.grantRequest?.status === "pending" ? ledger.state.grantRequest.digest : null;
  if (!digest || digest !== current) return stale(jc, ledger, w, "grant request", digest, current);
  if (deny === null && (await refusedApprover(jc, ledger, "grants", by, w))) return;
  if (deny === null) await approveGrant(ledger, by, digest);
  else await denyGrant(ledger, by, digest, sanitizeUntrusted(deny));
  jc.deps.log(`grant ${shortHash(digest)} ${deny === null ? "approved" : "denied"} by @${by.login}`);
  await drive(jc, ledger, `grant ${deny === null ? "approved" : "denied"} by @${by.login}`);
}

/** The grant request an approval decides: the button's by its prefix; a review's or a label's, the one waiting then; a comment's, as for a batch. */
export function grantDigestOf(jc: JobContext, ledger: Ledger, b: GrantBinding): Promise<string | null> {
  if (b.by === "button") return Promise.resolve(grantDigestForButton(ledger.state, b.identifier));
  if (b.by === "time") return Promise.resolve(currentAt(ledger.history, b.at, (e) => (e.type === "grant_requested" ? e.digest : null)));
  return grantDigestForComment(ledger.state, ledger.history, b.ref, b.act, requestComments(jc, ledger, grantRequest));
}

/** This session's comments asking for approval under `name`: on its issue, or on its PR once there is one. */
function requestComments(jc: JobContext, ledger: Ledger, name: (value: string) => string): RequestComments {
  return {
    name,
    async id(value) {
      const pr = await storedPullRequest(jc.deps.store, ledger.sessionId);
      const issue = ledger.state.task.source.issueNumber ?? 0;
      return requestCommentId(jc.deps.store, ledger.sessionId, pr ? [issue, pr.number] : [issue], name(value));
    },
  };
}

/** The plan an approval approves, as ./route.ts saw it named: null when it names none. */
export async function planHashOf(jc: JobContext, ledger: Ledger, b: PlanBinding): Promise<string | null> {
  if (b.by === "comment") return planHashForComment(ledger.state, ledger.history, b.ref, b.act, requestComments(jc, ledger, planRequest));
  if (b.by === "commit") return readEffect(jc.deps.store, effect.planOfCommit(ledger.sessionId, b.commitId));
  if (b.by === "label") return currentAt(ledger.history, b.at, (e) => (e.type === "plan_submitted" ? e.hash : null));
  return planHashForButton(ledger.state, b.identifier);
}

/** The batch a comment approves or denies. */
export function digestOf(jc: JobContext, ledger: Ledger, b: CommentBinding): Promise<string | null> {
  return digestForComment(ledger.state, ledger.history, b.ref, b.act, requestComments(jc, ledger, batchRequest));
}

export async function revise(jc: JobContext, ledger: Ledger, by: Approver, feedback: string): Promise<void> {
  await requestRevision(ledger, by, sanitizeUntrusted(feedback));
  jc.deps.log(`revision requested by @${by.login}`);
  await drive(jc, ledger, `revision requested by @${by.login}`);
}

/**
 * `agent:writes-approved`: every later write of this session is allowed, and a waiting batch runs now.
 * A label approves only what existed when it was added: `at` is its labeled event's time. Its event
 * id is of another sequence than comments', so unlike a comment it is not ordered by id.
 */
export async function approveAllWrites(jc: JobContext, ledger: Ledger, at: string, waiting: boolean, w: Where): Promise<void> {
  if (Date.parse(at) < Date.parse(ledger.history[0].at)) return jc.deps.log(`label added before session ${ledger.sessionId} existed: ignored`);
  if (await refusedApprover(jc, ledger, "writes", approver(jc, "label"), w)) return;
  await autoApproveWrites(ledger, approver(jc, "label"));
  jc.deps.log(`all writes approved by @${jc.delivery.sender.login}`);
  if (waiting) await drive(jc, ledger, `writes approved by label (@${jc.delivery.sender.login})`);
}

/** When the open question was asked: the ledger's time of its `question_asked`. */
function askedAt(ledger: Ledger): number {
  const e = [...ledger.history].reverse().find((x) => x.type === "question_asked");
  return e ? Date.parse(e.at) : Number.POSITIVE_INFINITY;
}

/**
 * `text` answers the waiting question if the words came after it; otherwise nothing happens (a reply
 * to an earlier question is ordinary conversation). ./route.ts sends answers only while a question waits.
 */
export async function answerWith(jc: JobContext, ledger: Ledger, text: string, at: string): Promise<void> {
  if (Date.parse(at) < askedAt(ledger)) return jc.deps.log(`the comment was written before the question was asked; not an answer`);
  const by = approver(jc, "comment");
  await answerQuestion(ledger, by, sanitizeUntrusted(text));
  jc.deps.log(`question ${ledger.state.questions.length} answered by @${by.login}`);
  await drive(jc, ledger, `question answered by @${by.login}`);
}
