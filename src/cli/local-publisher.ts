import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { publishableOrFail } from "../agent/publish-guard.js";

export const LOCAL_AUTHOR = { name: "Patchgate", email: "patchgate@users.noreply.local" };

/** Local runs publish by committing on a branch in the clone; nothing is pushed anywhere. */
export async function publishLocally(ledger: Ledger, ws: Workspace): Promise<void> {
  if (!(await publishableOrFail(ledger, ws))) return;
  const s = ledger.state;
  const branch = `patchgate/${s.sessionId.slice(0, 8)}`;
  const summary = s.finishSummary ?? s.task.title;
  const commit = await ws.commit({
    branch,
    message: `${s.task.title}\n\n${summary}\n\nPatchgate session ${s.sessionId}`,
    author: LOCAL_AUTHOR,
    // A question-only task changes nothing; the branch still records the answer (the summary).
    allowEmpty: true,
  });
  await ledger.append({ type: "published", branch, commit });
}
