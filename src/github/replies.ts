import { redact } from "../trace/redact.js";
import type { JobContext, SessionWork } from "./deps.js";
import { marker, upsertComment, type CommentAuthor } from "./markers.js";

/**
 * Every comment Patchgate posts goes through here: redacted (known secrets, the job's token, and
 * anything shaped like a credential) and marked, so a repeat of the same effect updates instead of
 * duplicating. `effect` names what the comment is for, e.g. `plan-<hash>` or `refused-<delivery>`.
 */
/**
 * Whether a comment is the app's own: its bot user, by login. Asked only when a marked comment is
 * found without a remembered id (rare: a crash between posting and remembering, or a forgery), so
 * the app identity is looked up only then.
 */
async function isPatchgate(jc: SessionWork, author: CommentAuthor): Promise<boolean> {
  if (!author || author.type !== "Bot") return false;
  return author.login === (await jc.identity.get(jc.octokit)).name;
}

/** What must never be posted: the configured secrets and the job's git token. */
export function secretsOf(jc: SessionWork): string[] {
  return jc.token ? [...jc.deps.secrets, jc.token] : jc.deps.secrets;
}

export async function postComment(jc: SessionWork, number: number, sessionId: string | null, effect: string, body: string): Promise<{ id: number; url: string }> {
  const { repo } = jc.delivery;
  const owner = sessionId ?? "-";
  const secrets = secretsOf(jc);
  const effectKey = `comment:${number}:${effect}`;
  const result = await upsertComment(jc.octokit, { owner: repo.owner, repo: repo.repo, number }, marker(owner, effect), redact(body, secrets), {
    get: () => jc.deps.store.getEffect(owner, effectKey),
    set: (id) => jc.deps.store.putEffect(owner, effectKey, id),
  }, (author) => isPatchgate(jc, author));
  jc.deps.log(`comment #${number} (${effect})`);
  return result;
}

/**
 * A one-off answer to a delivery (refusal, help, stale approval): keyed by the delivery id, so the
 * lookup for an earlier copy is skipped — a delivery is processed once (deduplicated on receipt).
 */
export async function answer(jc: SessionWork, number: number, sessionId: string | null, what: string, body: string): Promise<void> {
  const { repo } = jc.delivery;
  const secrets = secretsOf(jc);
  const text = `${redact(body, secrets)}\n\n${marker(sessionId ?? "-", `${what}-${jc.delivery.id}`)}`;
  await jc.octokit.rest.issues.createComment({ owner: repo.owner, repo: repo.repo, issue_number: number, body: text });
  jc.deps.log(`comment #${number} (${what})`);
}

/** The thread to answer in: where the words were said. */
export function replyThread(jc: JobContext, fallback: number): number {
  const i = jc.delivery.intent;
  return i.kind === "button" ? fallback : i.thread.number;
}
