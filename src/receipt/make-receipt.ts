import { signEnvelope, type Envelope } from "./envelope.js";
import { receiptStatementFor, type ReceiptInput } from "./from-session.js";
import { commitFacts, readReceiptNote } from "./notes.js";
import type { SigningKeys } from "./signing-key.js";
import type { ReceiptStatement } from "./statement.js";
import { receiptDigest } from "./verify-commit.js";

export interface MadeReceipt {
  statement: ReceiptStatement;
  envelope: Envelope;
  /** The note's text: what is written, stored and digested. */
  envelopeJson: string;
  /** `receiptDigest(envelopeJson)`: what `receipt_recorded` and a follow-up's `previousReceipt` name. */
  digest: string;
}

/**
 * The signed receipt of a commit that is in `gitDir`: what it changes is read from git, and the
 * receipt of its parent (a follow-up's predecessor), when that has one, is named in it.
 */
export async function makeReceipt(
  input: Omit<ReceiptInput, "tree" | "changes" | "previousReceipt"> & { gitDir: string; keys: SigningKeys },
): Promise<MadeReceipt> {
  const facts = await commitFacts(input.gitDir, input.commit);
  const parentNote = facts.parent === null ? null : await readReceiptNote(input.gitDir, facts.parent);
  const statement = receiptStatementFor({
    ...input,
    commit: facts.commit,
    tree: facts.tree,
    changes: facts.changes,
    previousReceipt: parentNote === null ? null : receiptDigest(parentNote),
  });
  const envelope = signEnvelope(statement, input.keys.current);
  const envelopeJson = `${JSON.stringify(envelope)}\n`;
  return { statement, envelope, envelopeJson, digest: receiptDigest(envelopeJson) };
}
