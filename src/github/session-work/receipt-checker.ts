import type { TrustedKey } from "../../receipt/envelope.js";
import { readReceiptNote } from "../../receipt/notes.js";
import { verifyCommits } from "../../receipt/verify-commit.js";
import type { ReceiptChecker } from "./receipt-status.js";

/**
 * Each commit's receipt, read from the notes and verified offline as `patchgate verify` does (the
 * signature by one of `keys`, the tree against the receipted paths, a passing test on that tree, a
 * person's approvals): none, valid, or invalid with the first finding.
 */
export function receiptChecker(keys: readonly TrustedKey[], botLogins: readonly string[]): ReceiptChecker {
  return async (gitDir, commits) => {
    const checks = [];
    for (const commit of commits) {
      if ((await readReceiptNote(gitDir, commit)) === null) {
        checks.push({ kind: "none" as const });
        continue;
      }
      const [verdict] = await verifyCommits({ gitDir, range: commit, publicKeys: keys, botLogins });
      const first = verdict?.findings[0];
      // The verifier names the commit first; the status names it already.
      checks.push(first ? { kind: "invalid" as const, why: first.message.replace(/^[0-9a-f]{7,40}: /, "") } : { kind: "valid" as const });
    }
    return checks;
  };
}
