import { answerQuestion, approvePlan, approveWrites, autoApproveWrites, denyWrites, requestRevision } from "../../agent/approvals.js";
import { StaleApprovalError } from "../../session/errors.js";
import { approverRefusal, type ApprovalKind } from "../../policy/approval-rule.js";
import { TERMINAL_PHASES, type Approver } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import { sanitizeUntrusted } from "../../safety/sanitize.js";
import { digestForComment, planHashForButton, planHashForComment, type CommentAct, type RequestComments } from "./binding.js";
import type { JobContext } from "../deps.js";
import { drive } from "./drive.js";
import { shortHash } from "../outbound/render.js";
import { answer } from "../outbound/replies.js";
import { sessionRepoConfig } from "./repo-config.js";
import { batchRequest, planRequest, requestCommentId } from "../outbound/request-comments.js";
import { storedPullRequest } from "../outbound/pull-request.js";

/**
 * Human decisions on a parked session. Each resolves what the human approved (./binding.ts),
 * appends the decision (the ledger refuses a stale one), and resumes. Reviews and labels on a
 * session that is not waiting are ignored silently: approving a finished PR is normal GitHub use.
 */
type Where = { reply: number };

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

async function decideWrites(
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

const planFor = (jc: JobContext, ledger: Ledger, ref: string | null, act: CommentAct) =>
  planHashForComment(ledger.state, ledger.history, ref, act, requestComments(jc, ledger, planRequest));
const batchFor = (jc: JobContext, ledger: Ledger, ref: string | null, act: CommentAct) =>
  digestForComment(ledger.state, ledger.history, ref, act, requestComments(jc, ledger, batchRequest));

/**
 * `/agent approve` means whichever approval the session is waiting for; `/agent approve executable-config`
 * approves a batch of writes with the executable configuration it lists apart.
 */
export async function approveByComment(jc: JobContext, ledger: Ledger, ref: string | null, act: CommentAct, w: Where, executableConfig = false): Promise<void> {
  const by = approver(jc, "comment");
  const s = ledger.state;
  if (s.phase === "awaiting_plan_approval" && !executableConfig) return approvePlanAs(jc, ledger, by, await planFor(jc, ledger, ref, act), w);
  if (s.phase === "awaiting_write_approval") return decideWrites(jc, ledger, by, await batchFor(jc, ledger, ref, act), null, w, executableConfig);
  if (executableConfig) {
    const what = `\`approve executable-config\` approves a batch of writes, and none is waiting (phase \`${s.phase}\`).`;
    return answer(
      jc,
      w.reply,
      ledger.sessionId,
      "nothing",
      s.phase === "awaiting_plan_approval" ? `${what} To approve the plan, use \`/agent approve\`.` : what,
    );
  }
  await answer(jc, w.reply, ledger.sessionId, "nothing", `There is nothing waiting for approval (phase \`${s.phase}\`).`);
}

export async function denyByComment(jc: JobContext, ledger: Ledger, reason: string, act: CommentAct, w: Where): Promise<void> {
  const s = ledger.state;
  if (s.phase !== "awaiting_write_approval") {
    await answer(
      jc,
      w.reply,
      ledger.sessionId,
      "nothing",
      `There is no batch of writes to deny (phase \`${s.phase}\`). To change the plan use \`/agent revise <feedback>\`.`,
    );
    return;
  }
  return decideWrites(jc, ledger, approver(jc, "comment"), await batchFor(jc, ledger, null, act), reason, w);
}

export async function revise(jc: JobContext, ledger: Ledger, by: Approver, feedback: string, w: Where): Promise<void> {
  const phase = ledger.state.phase;
  if (phase !== "awaiting_plan_approval" && phase !== "planning") {
    if (by.via === "review") return;
    await answer(jc, w.reply, ledger.sessionId, "nothing", `The plan can only be revised before it is approved (phase \`${phase}\`).`);
    return;
  }
  await requestRevision(ledger, by, sanitizeUntrusted(feedback));
  jc.deps.log(`revision requested by @${by.login}`);
  await drive(jc, ledger, `revision requested by @${by.login}`);
}

export function approvePlanByButton(jc: JobContext, ledger: Ledger, identifier: string, w: Where): Promise<void> {
  return approvePlanAs(jc, ledger, approver(jc, "check_run"), planHashForButton(ledger.state, identifier), w);
}

/**
 * `agent:writes-approved`: every later write of this session is allowed, and a waiting batch runs now.
 * On an ended session it is ignored like any late label (the ledger would refuse the event).
 */
export async function approveAllWrites(jc: JobContext, ledger: Ledger, w: Where): Promise<void> {
  if (TERMINAL_PHASES.includes(ledger.state.phase)) return;
  if (await refusedApprover(jc, ledger, "writes", approver(jc, "label"), w)) return;
  const waiting = ledger.state.phase === "awaiting_write_approval";
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
 * `text` answers the waiting question, if one waits and the words came after it; otherwise nothing
 * happens (a reply to an earlier question, or to nothing, is ordinary conversation). An answer is
 * bound to the question it answers: written after it was asked, recorded only while it waits.
 */
export async function answerWith(jc: JobContext, ledger: Ledger, text: string, at: string): Promise<void> {
  if (ledger.state.phase !== "awaiting_answer") return jc.deps.log(`no question waits on session ${ledger.sessionId}; the comment is not an answer`);
  if (Date.parse(at) < askedAt(ledger)) return jc.deps.log(`the comment was written before the question was asked; not an answer`);
  const by = approver(jc, "comment");
  await answerQuestion(ledger, by, sanitizeUntrusted(text));
  jc.deps.log(`question ${ledger.state.questions.length} answered by @${by.login}`);
  await drive(jc, ledger, `question answered by @${by.login}`);
}
