import type { SessionState } from "../../session/state.js";
import { TERMINAL_PHASES, type Approver } from "../../session/types.js";
import { HELP_TEXT } from "../inbound/command.js";
import type { Intent } from "../inbound/intent.js";
import { INTEGRITY_BUTTON } from "../outbound/integrity-button.js";
import { GRANT_BUTTON } from "../outbound/grant-button.js";

/**
 * Which human word is accepted in which phase of a session, decided here and nowhere else. Pure:
 * the verified intent and the session's folded state in, one command out. What an approval is bound
 * to (which plan or batch, written before or after what) is resolved later, against the ledger's
 * history and GitHub's ids (./binding.ts); what the repository's `approvals` rule allows is policy.
 */

/** A comment's approval: the short hash it names, if any, and when and as which comment it was written. */
export interface CommentBinding {
  ref: string | null;
  act: { at: string; commentId: number };
}

/** How an approval names the plan it approves; ./binding.ts turns it into a hash. */
export type PlanBinding =
  | ({ by: "comment" } & CommentBinding)
  /** A review approves the plan that was pushed as the commit it reviewed. */
  | { by: "commit"; commitId: string }
  /** A label approves the plan that was current when it was added. */
  | { by: "label"; at: string }
  | { by: "button"; identifier: string };

/** How an approval names the test_integrity request it decides; ./decisions.ts turns it into a digest. */
export type IntegrityBinding =
  | ({ by: "comment" } & CommentBinding)
  /** A review decides the request waiting when it was submitted (its id is of another sequence than comments'). */
  | { by: "review"; at: string }
  | { by: "button"; identifier: string };

/** How an approval names the grant request it decides; ./decisions.ts turns it into a digest. */
export type GrantBinding =
  | ({ by: "comment" } & CommentBinding)
  /** A review or a label decides the request waiting when it was given (their ids are of other sequences than comments'). */
  | { by: "time"; at: string }
  | { by: "button"; identifier: string };

/** A session's task as a new session takes it on. `followUp`: it starts from the issue's branch. */
interface StartSpec {
  title: string;
  body: string;
  instruction: string | null;
  followUp: boolean;
}

export type SessionCommand =
  | { kind: "start"; start: StartSpec }
  /** A start while a session works on the issue: refused, it is told where that one stands. */
  | { kind: "busy"; phase: SessionState["phase"] }
  | { kind: "approvePlan"; via: Approver["via"]; hash: PlanBinding }
  /** `deny`: the reason, when the batch is denied. */
  | { kind: "decideBatch"; digest: CommentBinding; deny?: string; executableConfig: boolean }
  /** The test_integrity request, approved or (`deny`) denied by a human who saw it; never by a label or a batch's approval. */
  | { kind: "decideIntegrity"; via: "comment" | "review" | "check_run"; digest: IntegrityBinding; deny?: string }
  /** A grant request (request_grant), approved or (`deny`) denied by a human shown it; never by a flag or a batch's approval. */
  | { kind: "decideGrant"; via: "comment" | "review" | "label" | "check_run"; digest: GrantBinding; deny?: string }
  /** `agent:writes-approved`, added at `at`; `resume`: a batch waits, and runs now. */
  | { kind: "approveAllWrites"; at: string; resume: boolean }
  | { kind: "revise"; via: "comment" | "review"; feedback: string }
  | { kind: "answer"; text: string; at: string }
  /** An issue opened or labeled without `/agent`, with no session working on it: a start if an automation names it. */
  | { kind: "automation"; event: IssueEvent }
  /** CI failed on the head of a finished session's PR: a follow-up if a `ci_failed` automation asks for one. */
  | { kind: "ciFollowUp"; failure: CiFailure }
  /** A review with line comments on a finished session's PR: one follow-up session. */
  | { kind: "reviewFollowUp"; review: Review }
  | { kind: "stop" }
  | { kind: "status" }
  | { kind: "retry" }
  /** `/agent budget`: the spend, told in the thread. */
  | { kind: "showBudget" }
  /** `/agent budget +<usd>` on a live session: the raise is recorded; a session parked by its budget goes on. */
  | { kind: "raiseBudget"; usd: number }
  /** A reply in the thread that asked, and nothing else happens: help, or why the command does not apply now. */
  | { kind: "tell"; tag: string; text: string }
  | { kind: "ignore"; why: string };

type Review = Extract<Intent, { kind: "review" }>;
type IssueEvent = Extract<Intent, { kind: "issue_event" }>;
type CiFailure = Extract<Intent, { kind: "ci_failed" }>;

/** Words that only matter in one state of a session: otherwise they are conversation, not commands. */
function isConversation(i: Intent): boolean {
  return i.kind === "reply" || i.kind === "line_comment" || (i.kind === "review" && i.state === "commented");
}

/**
 * Whether words that may be conversation are addressed to the session; asked before GitHub is read,
 * so that conversation costs nothing and nobody is refused for it. A comment without `/agent` is an
 * answer only while a question waits in the thread that asked it; a review that only comments, or
 * one of its line comments, matters only on a finished session's PR.
 */
export function addressesSession(i: Intent, s: SessionState | null): boolean {
  if (!isConversation(i)) return true;
  if (i.kind === "reply") return s?.phase === "awaiting_answer" && i.thread.number === s.task.source.issueNumber;
  return s?.phase === "done";
}

/** Help, status and stop only read or stop: they are not held back by a pending stop. */
export function actsOnSession(i: Intent): boolean {
  const c = i.kind === "command" ? i.command : null;
  return !(c?.kind === "help" || c?.kind === "status" || c?.kind === "stop" || (c?.kind === "budget" && c.raiseUsd === null));
}

/**
 * A new session on work a session left on the branch: after a published result (a follow-up), and
 * after untested work was pushed, so that `/agent retry` or an instruction on the PR continues from it.
 */
export function continuesFromBranch(s: SessionState): boolean {
  return s.phase === "done" || (s.phase === "blocked" && s.blocked?.work?.pushed === true);
}

const live = (s: SessionState | null): s is SessionState => s !== null && !TERMINAL_PHASES.includes(s.phase);
const start = (s: SessionState | null, spec: StartSpec): SessionCommand => (live(s) ? { kind: "busy", phase: s.phase } : { kind: "start", start: spec });
const ignore = (why: string): SessionCommand => ({ kind: "ignore", why });
const nothing = (text: string): SessionCommand => ({ kind: "tell", tag: "nothing", text });
const revisable = (s: SessionState) => s.phase === "awaiting_plan_approval" || s.phase === "planning";

export function route(i: Intent, s: SessionState | null): SessionCommand {
  if (i.kind === "issue_opened")
    return start(s, { title: i.thread.title, body: i.thread.body, instruction: i.command.kind === "start" ? i.command.task : null, followUp: false });
  // An automation never interrupts a session: a busy reply would answer words nobody addressed to Patchgate.
  if (i.kind === "issue_event") return live(s) ? ignore(`a session works on this issue (${s.phase})`) : { kind: "automation", event: i };
  if (i.kind === "label" && i.label === "agent") return start(s, { title: i.thread.title, body: i.thread.body, instruction: null, followUp: false });
  if (i.kind === "command") return routeCommand(i, s);
  if (s === null) return ignore("no session on this issue");
  if (i.kind === "ci_failed") return s.phase === "done" ? { kind: "ciFollowUp", failure: i } : ignore(`CI failed while the session is ${s.phase}`);
  if (i.kind === "reply") return s.phase === "awaiting_answer" ? { kind: "answer", text: i.body, at: i.at } : ignore("no question waits");
  if (i.kind === "button") return routeButton(i.identifier);
  // Verification reads a line comment back as its review: only the review acts.
  if (i.kind === "line_comment") return ignore("a line comment acts as its review");
  if (i.kind === "review") return routeReview(i, s);
  if (i.label === "agent:grant-approved")
    return s.phase === "awaiting_grant"
      ? { kind: "decideGrant", via: "label", digest: { by: "time", at: i.at } }
      : ignore(`no grant request waits (${s.phase})`);
  if (i.label === "agent:writes-approved")
    return TERMINAL_PHASES.includes(s.phase)
      ? ignore(`the session has ended (${s.phase})`)
      : { kind: "approveAllWrites", at: i.at, resume: s.phase === "awaiting_write_approval" };
  if (s.phase !== "awaiting_plan_approval") return ignore(`no plan waits for approval (${s.phase})`);
  return { kind: "approvePlan", via: "label", hash: { by: "label", at: i.at } };
}

function routeCommand(i: Extract<Intent, { kind: "command" }>, s: SessionState | null): SessionCommand {
  const c = i.command;
  const act = { at: i.at, commentId: i.commentId };
  if (c.kind === "help")
    return { kind: "tell", tag: "help", text: `${c.why === "help requested" ? "" : `I did not understand that (${c.why}).\n\n`}${HELP_TEXT}` };
  if (c.kind === "status" || c.kind === "stop" || c.kind === "retry") return { kind: c.kind };
  if (c.kind === "start") {
    if (s?.phase === "awaiting_answer" && c.task) return { kind: "answer", text: c.task, at: i.at };
    if (!i.thread.isPullRequest || s === null) return start(s, { title: i.thread.title, body: i.thread.body, instruction: c.task, followUp: false });
    if (s.phase === "done") return start(s, { title: `Follow-up on #${i.thread.number}`, body: "", instruction: c.task, followUp: true });
    // On the PR of a session that did not finish, the task is still the issue's (as for a retry):
    // the PR's title and body are Patchgate's own text, the old plan and how to approve it. Work
    // a blocked session pushed is continued, not replaced.
    return start(s, { title: s.task.title, body: s.task.body, instruction: c.task, followUp: continuesFromBranch(s) });
  }
  if (c.kind === "budget") {
    if (c.raiseUsd === null) return { kind: "showBudget" };
    const phase = s?.phase;
    if (!live(s)) return nothing(`There is no running session to raise the budget for${phase ? ` (phase \`${phase}\`)` : ""}.`);
    return { kind: "raiseBudget", usd: c.raiseUsd };
  }
  if (s === null) return { kind: "status" };
  if (c.kind === "approve") {
    const executableConfig = c.executableConfig === true;
    if (s.phase === "awaiting_integrity_approval" && !executableConfig)
      return { kind: "decideIntegrity", via: "comment", digest: { by: "comment", ref: c.ref, act } };
    if (c.integrity) return nothing(`No test_integrity request is waiting (phase \`${s.phase}\`).`);
    if (s.phase === "awaiting_grant" && !executableConfig) return { kind: "decideGrant", via: "comment", digest: { by: "comment", ref: c.ref, act } };
    if (s.phase === "awaiting_plan_approval" && !executableConfig) return { kind: "approvePlan", via: "comment", hash: { by: "comment", ref: c.ref, act } };
    if (s.phase === "awaiting_write_approval") return { kind: "decideBatch", digest: { ref: c.ref, act }, executableConfig };
    if (!executableConfig) return nothing(`There is nothing waiting for approval (phase \`${s.phase}\`).`);
    const what = `\`approve executable-config\` approves a batch of writes, and none is waiting (phase \`${s.phase}\`).`;
    return nothing(s.phase === "awaiting_plan_approval" ? `${what} To approve the plan, use \`/agent approve\`.` : what);
  }
  if (c.kind === "deny") {
    if (s.phase === "awaiting_integrity_approval")
      return { kind: "decideIntegrity", via: "comment", digest: { by: "comment", ref: null, act }, deny: c.reason };
    if (s.phase === "awaiting_write_approval") return { kind: "decideBatch", digest: { ref: null, act }, deny: c.reason, executableConfig: false };
    if (s.phase === "awaiting_grant") return { kind: "decideGrant", via: "comment", digest: { by: "comment", ref: null, act }, deny: c.reason };
    return nothing(`There is no batch of writes to deny (phase \`${s.phase}\`). To change the plan use \`/agent revise <feedback>\`.`);
  }
  if (!revisable(s)) return nothing(`The plan can only be revised before it is approved (phase \`${s.phase}\`).`);
  return { kind: "revise", via: "comment", feedback: c.feedback };
}

/**
 * A check run button: the Approve tests button names its test_integrity request, any other is the
 * Approve plan button, whose identifier ./binding.ts checks. In any phase: what the press names is
 * compared with what waits when it is applied, and a stale press is answered there.
 */
function routeButton(identifier: string): SessionCommand {
  if (identifier.startsWith(GRANT_BUTTON)) return { kind: "decideGrant", via: "check_run", digest: { by: "button", identifier } };
  if (identifier.startsWith(INTEGRITY_BUTTON)) return { kind: "decideIntegrity", via: "check_run", digest: { by: "button", identifier } };
  return { kind: "approvePlan", via: "check_run", hash: { by: "button", identifier } };
}

/** Reviews on a parked session are ignored silently: approving a finished PR is normal GitHub use. */
function routeReview(i: Review, s: SessionState): SessionCommand {
  if (s.phase === "done" && i.state !== "approved") return { kind: "reviewFollowUp", review: i };
  if (i.state === "commented") return ignore("a review that only comments starts work only on a finished session's PR");
  if (i.state === "changes_requested") {
    if (!revisable(s)) return ignore(`the plan is no longer revisable (${s.phase})`);
    if (i.body.trim() === "")
      return { kind: "tell", tag: "revise", text: "To send the plan back, say what to change in the review's comment (or `/agent revise <feedback>`)." };
    return { kind: "revise", via: "review", feedback: i.body };
  }
  // An approving review while a test_integrity request waits approves the request that waited when it was submitted.
  if (s.phase === "awaiting_integrity_approval") return { kind: "decideIntegrity", via: "review", digest: { by: "review", at: i.at } };
  if (s.phase === "awaiting_grant") return { kind: "decideGrant", via: "review", digest: { by: "time", at: i.at } };
  if (s.phase !== "awaiting_plan_approval") return ignore(`no plan waits for approval (${s.phase})`);
  return { kind: "approvePlan", via: "review", hash: { by: "commit", commitId: i.commitId } };
}
