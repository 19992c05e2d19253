import type { OperatorEnv } from "../config/operator-env.js";
import type { ReceiptSigner } from "../receipt/record-receipt.js";
import { ReceiptError } from "../receipt/receipt-error.js";
import { loadSigningKeys } from "../receipt/signing-key.js";
import { UsageError } from "./usage-error.js";
import { versionLine } from "./version.js";

/**
 * The signer of the CLI's receipts, read before the session starts: a signing key that cannot be read
 * stops the command with one line, not a session that cannot publish at its end.
 */
export function cliReceiptSigner(dataDir: string, env: OperatorEnv, secrets: readonly string[]): ReceiptSigner {
  try {
    return { keys: loadSigningKeys({ dataDir, env }), version: versionLine(), secrets };
  } catch (e) {
    if (ReceiptError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
}
