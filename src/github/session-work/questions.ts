import { answerQuestion } from "../../agent/approvals.js";
import type { SessionState } from "../../session/state.js";
import type { Ledger } from "../../store/ledger.js";
import { sanitizeUntrusted } from "../../safety/sanitize.js";
import { clip } from "../../safety/markdown.js";
import type { JobContext, SessionWork } from "../deps.js";
import { approver } from "./decisions.js";
import { drive } from "./drive.js";
import { inert } from "../../safety/inert.js";
import { postComment } from "../outbound/replies.js";

/**
 * The agent's questions (ask_human) on GitHub: the question goes to the issue as a comment, and the
 * next `/agent <answer>` — or any reply in the issue's thread — from someone with write access
 * answers it. An answer is bound to the question it answers: it must be written after the question
 * was asked, and it is recorded only while that question waits.
 */
const MAX_QUESTION_CHARS = 2000;

function questionComment(s: SessionState, max: number): string {
  const n = s.questions.length;
  // Model text: quoted, inert, never live markup, mentions or references.
  const quoted = inert(clip(s.questions.at(-1)?.question ?? "", MAX_QUESTION_CHARS))
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  return [
    `❓ Before it finishes the plan, the agent asks (question ${n} of at most ${max}):`,
    "",
    quoted,
    "",
    "Reply in this thread, or comment `/agent <your answer>` (write access needed). Planning continues with the answer; `/agent stop` cancels.",
  ].join("\n");
}

/** Posts the waiting question on the issue, once per question. */
export async function postQuestion(jc: SessionWork, ledger: Ledger, max: number): Promise<void> {
  const s = ledger.state;
  await postComment(jc, s.task.source.issueNumber ?? 0, ledger.sessionId, `question-${s.questions.length}`, questionComment(s, max));
}

/** When the open question was asked: the ledger's time of its `question_asked`. */
function askedAt(ledger: Ledger): number {
  const e = [...ledger.history].reverse().find((x) => x.type === "question_asked");
  return e ? Date.parse(e.at) : Number.POSITIVE_INFINITY;
}

/**
 * `text` answers the waiting question, if one waits and the words came after it; otherwise nothing
 * happens (a reply to an earlier question, or to nothing, is ordinary conversation).
 */
export async function answerWith(jc: JobContext, ledger: Ledger, text: string, at: string): Promise<void> {
  if (ledger.state.phase !== "awaiting_answer") return jc.deps.log(`no question waits on session ${ledger.sessionId}; the comment is not an answer`);
  if (Date.parse(at) < askedAt(ledger)) return jc.deps.log(`the comment was written before the question was asked; not an answer`);
  const by = approver(jc, "comment");
  await answerQuestion(ledger, by, sanitizeUntrusted(text));
  jc.deps.log(`question ${ledger.state.questions.length} answered by @${by.login}`);
  await drive(jc, ledger, `question answered by @${by.login}`);
}
