import { createHash, createPublicKey, type KeyObject } from "node:crypto";

/**
 * A key's id: `sha256:` and the hex SHA-256 of its public half's DER SubjectPublicKeyInfo, the same
 * for any PEM spelling of it and for the private key it belongs to.
 */
export function keyIdOf(key: KeyObject | string): string {
  const der = publicOf(key).export({ type: "spki", format: "der" });
  return `sha256:${createHash("sha256").update(der).digest("hex")}`;
}

/** A public key as PEM (SubjectPublicKeyInfo), the form key documents and `--key` files carry. */
export function publicPemOf(key: KeyObject): string {
  return publicOf(key).export({ type: "spki", format: "pem" }).toString();
}

function publicOf(key: KeyObject | string): KeyObject {
  return typeof key !== "string" && key.type === "public" ? key : createPublicKey(key);
}
