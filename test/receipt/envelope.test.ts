import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { IN_TOTO_PAYLOAD_TYPE, preAuthEncoding, signEnvelope, verifyEnvelope } from "../../src/receipt/envelope.js";
import { keyIdOf, publicPemOf } from "../../src/receipt/key-id.js";

// A fixed Ed25519 key (its 32-byte seed after the PKCS#8 prefix) and, below, the signature OpenSSL
// (`openssl pkeyutl -sign -rawin`) made over the PAE of STATEMENT with it: Ed25519 is deterministic,
// so an implementation that encodes or signs differently cannot produce the same bytes.
const SEED = "79802d18c5f7017e5fdfd12cf56d03ddb04fe46afe14f79d979b7f401c55544f";
const PKCS8_ED25519_PREFIX = "302e020100300506032b657004220420";
const FIXED_KEY = createPrivateKey({ key: Buffer.from(PKCS8_ED25519_PREFIX + SEED, "hex"), format: "der", type: "pkcs8" });
const FIXED_KEY_ID = "sha256:5f3b48b9934b24d4b78f2eb2db96f02add5e98c5adc12728f1b59f7eb1ad12cc";
const OPENSSL_SIGNATURE = "UBMr9w9WJL70coYoEWi0iS3CesDml9NoASQiUs08NwGzPA0MDE7KKw4g19Or/DIrD/vjJTz32lz/8y84U2PNBw==";
const STATEMENT = {
  _type: "https://in-toto.io/Statement/v1",
  subject: [{ name: "git+octo/demo", digest: { gitCommit: "0123456789abcdef0123456789abcdef01234567" } }],
  predicateType: "https://patchgate.dev/receipt/v1",
  predicate: { hello: "world" },
};

const fixed = { keyId: keyIdOf(FIXED_KEY), privateKey: FIXED_KEY };
const fixedPublic = { keyId: FIXED_KEY_ID, publicKeyPem: publicPemOf(FIXED_KEY) };

function freshKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return { signer: { keyId: keyIdOf(publicKey), privateKey }, trusted: { keyId: keyIdOf(publicKey), publicKeyPem: publicPemOf(publicKey) } };
}

describe("preAuthEncoding", () => {
  it("is the DSSE spec's example byte for byte", () => {
    expect(preAuthEncoding("http://example.com/HelloWorld", Buffer.from("hello world")).toString()).toBe(
      "DSSEv1 29 http://example.com/HelloWorld 11 hello world",
    );
  });

  it("counts bytes, not characters", () => {
    expect(preAuthEncoding("t", Buffer.from("é", "utf8")).toString("utf8")).toBe("DSSEv1 1 t 2 é");
  });
});

describe("key ids", () => {
  it("are sha256 of the DER SubjectPublicKeyInfo, whichever half of the pair is given", () => {
    expect(keyIdOf(FIXED_KEY)).toBe(FIXED_KEY_ID);
    expect(keyIdOf(publicPemOf(FIXED_KEY))).toBe(FIXED_KEY_ID);
  });
});

describe("signEnvelope / verifyEnvelope", () => {
  it("signs the known vector exactly as OpenSSL did", () => {
    const envelope = signEnvelope(STATEMENT, fixed);
    expect(envelope).toEqual({
      payload: Buffer.from(JSON.stringify(STATEMENT)).toString("base64"),
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      signatures: [{ keyid: FIXED_KEY_ID, sig: OPENSSL_SIGNATURE }],
    });
  });

  it("verifies a signature OpenSSL made and returns the statement and key id", () => {
    const envelope = {
      payload: Buffer.from(JSON.stringify(STATEMENT)).toString("base64"),
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      signatures: [{ keyid: FIXED_KEY_ID, sig: OPENSSL_SIGNATURE }],
    };
    expect(verifyEnvelope(envelope, [fixedPublic])).toEqual({ ok: true, statement: STATEMENT, keyId: FIXED_KEY_ID });
  });

  it("refuses a payload changed after signing", () => {
    const envelope = signEnvelope(STATEMENT, fixed);
    const changed = { ...envelope, payload: Buffer.from(JSON.stringify({ ...STATEMENT, predicate: { hello: "there" } })).toString("base64") };
    expect(verifyEnvelope(changed, [fixedPublic])).toEqual({ ok: false, reason: `the signature by key ${FIXED_KEY_ID} does not match the payload` });
  });

  it("refuses a changed payload type, which the signature covers", () => {
    const envelope = signEnvelope(STATEMENT, fixed);
    expect(verifyEnvelope({ ...envelope, payloadType: "application/json" }, [fixedPublic])).toEqual({
      ok: false,
      reason: `payload type "application/json", not ${IN_TOTO_PAYLOAD_TYPE}`,
    });
  });

  it("refuses a signature by a key that is not trusted", () => {
    const other = freshKey();
    const envelope = signEnvelope(STATEMENT, other.signer);
    expect(verifyEnvelope(envelope, [fixedPublic])).toEqual({ ok: false, reason: `signed by a key that is not trusted (${other.signer.keyId})` });
  });

  it("does not take a key id on faith: another key's signature under the trusted key's id fails", () => {
    const other = freshKey();
    const forged = signEnvelope(STATEMENT, { keyId: FIXED_KEY_ID, privateKey: other.signer.privateKey });
    expect(verifyEnvelope(forged, [fixedPublic])).toEqual({ ok: false, reason: `the signature by key ${FIXED_KEY_ID} does not match the payload` });
  });

  it("recomputes a trusted key's id instead of reading it from the key document", () => {
    const other = freshKey();
    const envelope = signEnvelope(STATEMENT, other.signer);
    // A document that claims the other key's id for the fixed key's PEM trusts nothing extra.
    expect(verifyEnvelope(envelope, [{ keyId: other.signer.keyId, publicKeyPem: fixedPublic.publicKeyPem }]).ok).toBe(false);
    expect(verifyEnvelope(envelope, [other.trusted]).ok).toBe(true);
  });

  it("names what is missing from something that is not an envelope", () => {
    expect(verifyEnvelope({ payload: "x" }, [fixedPublic])).toEqual({ ok: false, reason: "not a DSSE envelope (payload, payloadType, signatures)" });
  });
});
