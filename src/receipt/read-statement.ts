import { ReceiptPredicateSchema } from "./predicate-schema.js";
import { RECEIPT_PREDICATE_TYPE, STATEMENT_TYPE, type ReceiptStatement } from "./statement.js";

/** A verified envelope's statement, checked to be a Patchgate receipt; a string says what is wrong. */
export function readReceiptStatement(value: unknown): ReceiptStatement | string {
  if (typeof value !== "object" || value === null) return "the statement is not an object";
  const s = value as Record<string, unknown>;
  if (s._type !== STATEMENT_TYPE) return `the statement's _type is ${JSON.stringify(s._type)}, not ${STATEMENT_TYPE}`;
  if (s.predicateType !== RECEIPT_PREDICATE_TYPE) return `the predicate type is ${JSON.stringify(s.predicateType)}, not ${RECEIPT_PREDICATE_TYPE}`;
  const subject = s.subject;
  if (!Array.isArray(subject) || subject.length !== 1 || typeof (subject[0] as { digest?: { gitCommit?: unknown } })?.digest?.gitCommit !== "string") {
    return "the statement's subject is not one git commit";
  }
  const parsed = ReceiptPredicateSchema.safeParse(s.predicate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `the predicate does not match ${RECEIPT_PREDICATE_TYPE}: ${issue.path.join(".") || "(top)"}: ${issue.message}`;
  }
  return { ...(value as ReceiptStatement), predicate: parsed.data };
}
