import type { Ledger } from "../store/ledger.js";
import { makeReceipt } from "./make-receipt.js";
import { writeReceiptNote } from "./notes.js";
import type { SigningKeys } from "./signing-key.js";

/** What a publisher needs to receipt its commits. */
export interface ReceiptSigner {
  keys: SigningKeys;
  /** Patchgate's version, as `patchgate --version` prints it. */
  version: string;
  /** Values redacted from command lines besides the recognised shapes. */
  secrets?: readonly string[];
}

/**
 * Signs the receipt of `commit` (in the repository at `gitDir`), writes it as the commit's note and
 * records it in the ledger, in that order: a receipt the ledger names is one the repository holds.
 */
export async function recordReceipt(ledger: Ledger, gitDir: string, commit: string, kind: "plan" | "result", signer: ReceiptSigner): Promise<string> {
  const made = await makeReceipt(
    {
      state: ledger.state,
      events: ledger.history,
      kind,
      commit,
      repository: ledger.state.task.source.repo,
      version: signer.version,
      ledgerHead: await ledger.head(),
      keys: signer.keys,
      gitDir,
      ...(signer.secrets ? { secrets: signer.secrets } : {}),
    },
    { trailingNewline: true },
  );
  await writeReceiptNote(gitDir, commit, made.envelopeJson);
  await ledger.append({ type: "receipt_recorded", commit, kind, digest: made.digest, envelope: made.envelopeJson });
  return made.digest;
}
