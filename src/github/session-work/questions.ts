import type { SessionState } from "../../session/state.js";
import type { Ledger } from "../../store/ledger.js";
import { clip } from "../../safety/markdown.js";
import type { SessionWork } from "../deps.js";
import { inert } from "../../safety/inert.js";
import { postComment } from "../outbound/replies.js";

/**
 * The agent's questions (ask_human) on GitHub: the question goes to the issue as a comment, and the
 * next `/agent <answer>` — or any reply in the issue's thread — from someone with write access
 * answers it (./decisions.ts records the answer).
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
export async function postQuestion(work: SessionWork, ledger: Ledger, max: number): Promise<void> {
  const s = ledger.state;
  await postComment(work, s.task.source.issueNumber ?? 0, ledger.sessionId, `question-${s.questions.length}`, questionComment(s, max));
}
