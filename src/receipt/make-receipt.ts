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

/** Where the receipt of the commit a new one builds on is found; null: that commit has none. */
type ParentReceipt = (parent: string) => Promise<string | null>;

export interface ReceiptOptions {
  /**
   * The commit in `gitDir` whose tree and changes the receipt states, when `commit` itself is not
   * there yet (a commit GitHub made and signed): its twin, with the same parent and the same tree.
   */
  twin?: string;
  /** The digest of the parent's receipt. Without it, the parent's note in `gitDir`. */
  parentReceipt?: ParentReceipt;
  /**
   * Whether the note's text ends with a newline, as git writes a note it is given on stdin. A note
   * sent through GitHub's API is the envelope alone. The digest is the same either way.
   */
  trailingNewline: boolean;
}

/**
 * The signed receipt of a commit: what it changes is read from git, and the receipt of its parent (a
 * follow-up's predecessor), when that has one, is named in it. The one builder for every publisher.
 */
export async function makeReceipt(
  input: Omit<ReceiptInput, "tree" | "changes" | "previousReceipt"> & { gitDir: string; keys: SigningKeys },
  options: ReceiptOptions,
): Promise<MadeReceipt> {
  const facts = await commitFacts(input.gitDir, options.twin ?? input.commit);
  const parentReceipt = options.parentReceipt ?? parentNoteIn(input.gitDir);
  const statement = receiptStatementFor({
    ...input,
    commit: options.twin === undefined ? facts.commit : input.commit,
    tree: facts.tree,
    changes: facts.changes,
    previousReceipt: facts.parent === null ? null : await parentReceipt(facts.parent),
  });
  const envelope = signEnvelope(statement, input.keys.current);
  const envelopeJson = `${JSON.stringify(envelope)}${options.trailingNewline ? "\n" : ""}`;
  return { statement, envelope, envelopeJson, digest: receiptDigest(envelopeJson) };
}

function parentNoteIn(gitDir: string): ParentReceipt {
  return async (parent) => {
    const note = await readReceiptNote(gitDir, parent);
    return note === null ? null : receiptDigest(note);
  };
}
