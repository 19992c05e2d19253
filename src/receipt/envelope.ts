import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { keyIdOf } from "./key-id.js";

/**
 * DSSE v1 (github.com/secure-systems-lab/dsse, envelope.md and protocol.md): the signature covers the
 * pre-authentication encoding of the payload type and the payload's bytes, never the JSON around them,
 * so the envelope's own spelling cannot change what was signed.
 */
export const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

export interface Envelope {
  /** base64 (standard alphabet, padded) of the serialised statement. */
  payload: string;
  payloadType: string;
  signatures: { keyid: string; sig: string }[];
}

/** A key a verifier trusts: its id and PEM (SubjectPublicKeyInfo). */
export interface TrustedKey {
  keyId: string;
  publicKeyPem: string;
}

export type EnvelopeVerdict = { ok: true; statement: unknown; keyId: string } | { ok: false; reason: string };

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN the byte count in ASCII decimal. */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

export function signEnvelope(statement: object, key: { keyId: string; privateKey: KeyObject }): Envelope {
  const payload = Buffer.from(JSON.stringify(statement), "utf8");
  const sig = sign(null, preAuthEncoding(IN_TOTO_PAYLOAD_TYPE, payload), key.privateKey);
  return { payload: payload.toString("base64"), payloadType: IN_TOTO_PAYLOAD_TYPE, signatures: [{ keyid: key.keyId, sig: sig.toString("base64") }] };
}

/**
 * Valid when one signature verifies under a trusted key whose id it names. The id is only a hint for
 * finding the key: a trusted key's id is recomputed from the key itself, never taken from a document.
 */
export function verifyEnvelope(envelope: unknown, publicKeys: readonly TrustedKey[]): EnvelopeVerdict {
  if (!isEnvelope(envelope)) return { ok: false, reason: "not a DSSE envelope (payload, payloadType, signatures)" };
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return { ok: false, reason: `payload type ${JSON.stringify(envelope.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  const payload = Buffer.from(envelope.payload, "base64");
  const pae = preAuthEncoding(envelope.payloadType, payload);
  const trusted = new Map(publicKeys.map((k) => [keyIdOf(k.publicKeyPem), k.publicKeyPem]));
  for (const s of envelope.signatures) {
    const pem = trusted.get(s.keyid);
    if (pem === undefined) continue;
    if (!verify(null, pae, createPublicKey(pem), Buffer.from(s.sig, "base64"))) {
      return { ok: false, reason: `the signature by key ${s.keyid} does not match the payload` };
    }
    try {
      return { ok: true, statement: JSON.parse(payload.toString("utf8")) as unknown, keyId: s.keyid };
    } catch {
      return { ok: false, reason: "the signed payload is not JSON" };
    }
  }
  const ids = envelope.signatures.map((s) => s.keyid).join(", ") || "none";
  return { ok: false, reason: `signed by a key that is not trusted (${ids})` };
}

function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== "object" || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.payload === "string" &&
    typeof e.payloadType === "string" &&
    Array.isArray(e.signatures) &&
    e.signatures.every(
      (s: unknown) =>
        typeof s === "object" &&
        s !== null &&
        typeof (s as Record<string, unknown>).keyid === "string" &&
        typeof (s as Record<string, unknown>).sig === "string",
    )
  );
}
