import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect as effects } from "../../store/effects.js";
import type { Intake, Poster } from "../deps.js";
import { marker, upsertComment, type CommentAuthor } from "./markers.js";
import { removeStrayCopies } from "./stray-copies.js";
import { storedPullRequest } from "./pull-request.js";
import type { Ledger } from "../../store/ledger.js";

/**
 * Every comment Patchgate posts goes through here, and from here through the outbound gate
 * (./outbound.ts: redacted, inert, capped), and is marked, so a repeat of the same effect updates
 * instead of duplicating. `effect` names what the comment is for, e.g. `plan-<hash>` or `refused-<delivery>`.
 */
/**
 * Whether a comment is the app's own: its bot user, by login. Asked only when a marked comment is
 * found without a remembered id (rare: a crash between posting and remembering, or a forgery), so
 * the app identity is looked up only then.
 */
async function isPatchgate(jc: Poster, author: CommentAuthor): Promise<boolean> {
  if (!author || author.type !== "Bot") return false;
  return author.login === (await jc.identity.get(jc.octokit)).name;
}

/** The id of the comment posted for (owner, thread, effect), as remembered when it was posted. */
async function rememberedComment(jc: Poster, owner: string, number: number, effect: string): Promise<number | null> {
  const id = await readEffect(jc.deps.store, effects.comment(owner, number, effect));
  return id === null ? null : Number(id);
}

/**
 * A session's comment, remembered under the session (whose key holds its installation and repository):
 * a comment remembered under a shared owner could be found from another repository's thread of the same number.
 */
export async function postComment(jc: Poster, number: number, sessionId: string, effect: string, body: string): Promise<{ id: number; url: string }> {
  const { repo } = jc.delivery;
  const owner = sessionId;
  const posted = effects.comment(owner, number, effect);
  const result = await upsertComment(
    jc.octokit,
    jc.outbound,
    { owner: repo.owner, repo: repo.repo, number },
    marker(owner, effect),
    body,
    sessionId,
    {
      get: async () => {
        const id = await rememberedComment(jc, owner, number, effect);
        return id === null ? null : String(id);
      },
      set: (id) => writeEffect(jc.deps.store, posted, Number(id)),
    },
    (author) => isPatchgate(jc, author),
  );
  jc.deps.log(`comment #${number} (${effect})`);
  return result;
}

/**
 * The session's last comment (done, ended) on its issue, then every thread the session posted in
 * (the issue, its PR once there is one) cleared of copies a killed process's late POST left
 * (stray-copies.ts). The clearing is tidying: a failure is logged, and the session's end stands.
 */
export async function postEndComment(jc: Poster, ledger: Ledger, effect: string, body: string): Promise<void> {
  const sessionId = ledger.sessionId;
  const issue = ledger.state.task.source.issueNumber ?? 0;
  await postComment(jc, issue, sessionId, effect, body);
  const pr = await storedPullRequest(jc.deps.store, sessionId);
  const { repo } = jc.delivery;
  for (const number of new Set(pr ? [issue, pr.number] : [issue])) {
    await removeStrayCopies(
      jc.octokit,
      { owner: repo.owner, repo: repo.repo, number },
      sessionId,
      (e) => rememberedComment(jc, sessionId, number, e),
      (author) => isPatchgate(jc, author),
    )
      .then((n) => n > 0 && jc.deps.log(`comment #${number}: ${n} stray cop${n === 1 ? "y" : "ies"} of the session's comments removed`))
      .catch((e: unknown) => jc.deps.log(`comment #${number}: stray copies not removed: ${e instanceof Error ? e.message : String(e)}`, "warn"));
  }
}

/**
 * A one-off answer to a delivery (refusal, help, stale approval): keyed by the delivery id, so the
 * lookup for an earlier copy is skipped — a delivery is processed once (deduplicated on receipt).
 */
export async function answer(jc: Poster, number: number, sessionId: string | null, what: string, body: string): Promise<void> {
  await jc.outbound.createComment(number, body, marker(sessionId ?? "-", `${what}-${jc.delivery.id}`), sessionId);
  jc.deps.log(`comment #${number} (${what})`);
}

/** The thread to answer in: where the words were said. */
export function replyThread(jc: Pick<Intake, "delivery">, fallback: number): number {
  const i = jc.delivery.intent;
  return i.kind === "button" ? fallback : i.thread.number;
}
