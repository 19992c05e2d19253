import type { Ledger } from "../store/ledger.js";
import type { Workspace } from "../workspace/types.js";
import { keepBlockedWorkLocally, publishToLocalBranch } from "../publish/local-branch.js";
import type { ReceiptSigner } from "../receipt/record-receipt.js";

const LOCAL_AUTHOR = { name: "Patchgate", email: "patchgate@users.noreply.local" };

/**
 * Local runs publish by committing on a branch `patchgate/<id>` in the clone; nothing is pushed. With
 * `receipt`, the commit gets its signed receipt as a note (`refs/notes/patchgate`) in the clone.
 */
export function publishLocally(ledger: Ledger, ws: Workspace, receipt?: ReceiptSigner): Promise<void> {
  return publishToLocalBranch(ledger, ws, {
    prefix: "patchgate/",
    author: LOCAL_AUTHOR,
    trailer: `Patchgate session ${ledger.sessionId}`,
    ...(receipt ? { receipt } : {}),
  });
}

/** A blocked session's untested work on `patchgate/<id>-untested` in the clone, guarded like a publish. */
export function keepBlockedWorkInClone(ledger: Ledger, ws: Workspace, protectedPaths: string[], secrets: readonly string[]): Promise<void> {
  return keepBlockedWorkLocally(ledger, ws, {
    prefix: "patchgate/",
    author: LOCAL_AUTHOR,
    trailer: `Patchgate session ${ledger.sessionId}`,
    protectedPaths,
    secrets,
  });
}
