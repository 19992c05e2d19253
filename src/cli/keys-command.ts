import { existsSync } from "node:fs";
import { join } from "node:path";
import { ReceiptError } from "../receipt/receipt-error.js";
import { loadSigningKeys, publicKeysDocument, rotateSigningKey, signingKeyDir, type SigningKeys } from "../receipt/signing-key.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";

export const KEYS_USAGE = "patchgate keys [--rotate] [--json] [--data-dir <d>]";

/**
 * `patchgate keys`: the public keys receipts are verified with (the current one, and the retired ones
 * with the date they stopped); `--rotate` makes a new key sign from now on. Never prints a private key.
 */
export async function keysCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, { rotate: { type: "boolean" }, json: { type: "boolean" }, "data-dir": { type: "string" } } as const, KEYS_USAGE);
  if (parsed.help) return help(out, KEYS_USAGE);
  if (parsed.positionals.length > 0) throw new UsageError(`keys takes no arguments\nusage: ${KEYS_USAGE}`);
  const dir = dataDir(parsed.values["data-dir"], env);
  let keys: SigningKeys;
  try {
    keys = parsed.values.rotate ? rotateSigningKey(dir, env) : loadSigningKeys({ dataDir: dir, env });
  } catch (e) {
    if (ReceiptError.isInstance(e)) throw new UsageError(e.message);
    throw e;
  }
  const doc = publicKeysDocument(keys);
  if (parsed.values.json) {
    out.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  for (const k of doc.keys) out.write(`${k.retiredAt === null ? "current" : `retired ${k.retiredAt}`}  ${k.keyId}  ed25519\n${k.publicKeyPem.trim()}\n`);
  return 0;
}

/** This machine's signing keys when it has one (from the environment or the data directory); null, and nothing created, otherwise. */
export function localSigningKeys(dir: string, env: OperatorEnv): SigningKeys | null {
  const configured = env.PATCHGATE_SIGNING_KEY !== undefined || env.PATCHGATE_SIGNING_KEY_FILE !== undefined;
  if (!configured && !existsSync(join(signingKeyDir(dir), "current.pem"))) return null;
  return loadSigningKeys({ dataDir: dir, env });
}
