import { createPublicKey } from "node:crypto";
import type { TrustedKey } from "./envelope.js";
import { keyIdOf, publicPemOf } from "./key-id.js";
import { ReceiptError } from "./receipt-error.js";

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/**
 * The keys a `--key` names: the keys document (`patchgate keys --json`, the app's keys route) or one
 * or more PEM public keys. Every id is computed from the key, never read from the document.
 */
export function parseTrustedKeys(text: string, where: string): TrustedKey[] {
  const pems = text.trimStart().startsWith("{") ? pemsOfDocument(text, where) : (text.match(PEM_BLOCK) ?? []);
  if (pems.length === 0) throw new ReceiptError("key_document_invalid", `${where}: neither a keys document nor a PEM public key`);
  return pems.map((pem) => {
    let key;
    try {
      key = createPublicKey(pem);
    } catch {
      throw new ReceiptError("key_document_invalid", `${where}: a public key that does not parse`);
    }
    if (key.asymmetricKeyType !== "ed25519")
      throw new ReceiptError("key_document_invalid", `${where}: an ${key.asymmetricKeyType ?? "unknown"} key, not Ed25519`);
    return { keyId: keyIdOf(key), publicKeyPem: publicPemOf(key) };
  });
}

function pemsOfDocument(text: string, where: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ReceiptError("key_document_invalid", `${where}: not JSON`);
  }
  const keys = (doc as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || !keys.every((k) => typeof (k as { publicKeyPem?: unknown })?.publicKeyPem === "string")) {
    throw new ReceiptError("key_document_invalid", `${where}: expected { keys: [{ publicKeyPem }] }`);
  }
  return keys.map((k: { publicKeyPem: string }) => k.publicKeyPem);
}
