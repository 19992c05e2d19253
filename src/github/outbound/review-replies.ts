import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Ledger } from "../../store/ledger.js";
import type { SessionWork } from "../deps.js";
import { marker } from "./markers.js";

/**
 * Once a follow-up started by a review is pushed, each line comment it addressed hears so in its own
 * thread ("Addressed in `abc1234`."). Patchgate resolves no thread: whether the comment is
 * addressed is the reviewer's call. Each reply is remembered, so a publication that runs again
 * (a retry after a crash) does not reply twice to a thread it already answered.
 */
export async function replyInReviewThreads(jc: SessionWork, ledger: Ledger, commit: string): Promise<void> {
  for (const c of ledger.state.task.reviewComments ?? []) {
    const replied = effect.reviewReply(ledger.sessionId, c.id);
    if ((await readEffect(jc.deps.store, replied)) !== null) continue;
    const reply = await jc.outbound.replyToReviewComment(
      c.pull,
      c.id,
      `Addressed in \`${commit.slice(0, 7)}\`.`,
      marker(ledger.sessionId, replied.key),
      ledger.sessionId,
    );
    await writeEffect(jc.deps.store, replied, reply.id);
    jc.deps.log(`replied in the thread of review comment ${c.id}`);
  }
}
