import type { ReceiptPredicate } from "./predicate-schema.js";

/** in-toto Statement v1 (github.com/in-toto/attestation, spec/v1/statement.md). */
export const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
/** Patchgate's predicate, version 1 (predicate-schema.ts). A change that old verifiers would misread gets a new version. */
export const RECEIPT_PREDICATE_TYPE = "https://patchgate.dev/receipt/v1";

export interface ReceiptStatement {
  _type: typeof STATEMENT_TYPE;
  subject: { name: string; digest: { gitCommit: string } }[];
  predicateType: typeof RECEIPT_PREDICATE_TYPE;
  predicate: ReceiptPredicate;
}

/** `git+<repository>`: the repository as the session named it (owner/name, or a local path's name). */
function subjectName(repository: string): string {
  return `git+${repository}`;
}

export function receiptStatement(repository: string, commit: string, predicate: ReceiptPredicate): ReceiptStatement {
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: subjectName(repository), digest: { gitCommit: commit } }],
    predicateType: RECEIPT_PREDICATE_TYPE,
    predicate,
  };
}

export type { ReceiptPredicate } from "./predicate-schema.js";
