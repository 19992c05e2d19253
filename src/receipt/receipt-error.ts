import { FatalError } from "../errors/index.js";

/**
 * What stops signing or reading receipts: a signing key that is missing, unreadable or not Ed25519,
 * a key document that does not parse. One line naming the variable or file, never the key itself.
 */
export type ReceiptErrorKind = "signing_key_invalid" | "signing_key_unreadable" | "key_document_invalid" | "rotation_refused";

export class ReceiptError extends FatalError {
  constructor(
    readonly kind: ReceiptErrorKind,
    message: string,
  ) {
    super(message);
  }
}
