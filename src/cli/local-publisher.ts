import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { publishToLocalBranch } from "../agent/local-branch-publish.js";

export const LOCAL_AUTHOR = { name: "Patchgate", email: "patchgate@users.noreply.local" };

/** Local runs publish by committing on a branch `patchgate/<id>` in the clone; nothing is pushed. */
export function publishLocally(ledger: Ledger, ws: Workspace): Promise<void> {
  return publishToLocalBranch(ledger, ws, { prefix: "patchgate/", author: LOCAL_AUTHOR, trailer: `Patchgate session ${ledger.sessionId}` });
}
