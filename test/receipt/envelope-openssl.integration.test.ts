import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IN_TOTO_PAYLOAD_TYPE, preAuthEncoding, signEnvelope, verifyEnvelope } from "../../src/receipt/envelope.js";
import { keyIdOf, publicPemOf } from "../../src/receipt/key-id.js";

// OpenSSL as the second, independent implementation: it knows nothing of our code, only Ed25519 over
// the bytes DSSE says are signed (the PAE, built here by hand from the spec, not by preAuthEncoding).
const STATEMENT = {
  _type: "https://in-toto.io/Statement/v1",
  subject: [{ name: "git+octo/demo", digest: { gitCommit: "89abcdef0123456789abcdef0123456789abcdef" } }],
  predicateType: "https://patchgate.dev/receipt/v1",
  predicate: { sessionId: "s-1", note: "ünïcode counts in bytes" },
};

function paeBySpec(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
}

describe("DSSE envelopes against OpenSSL", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "pg-dsse-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

  it("OpenSSL verifies our signature over the PAE bytes", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const envelope = signEnvelope(STATEMENT, { keyId: keyIdOf(publicKey), privateKey });
    const body = Buffer.from(envelope.payload, "base64");
    expect(JSON.parse(body.toString("utf8"))).toEqual(STATEMENT);
    writeFileSync(join(dir, "pub.pem"), publicPemOf(publicKey));
    writeFileSync(join(dir, "pae"), paeBySpec(envelope.payloadType, body));
    writeFileSync(join(dir, "sig"), Buffer.from(envelope.signatures[0].sig, "base64"));
    expect(openssl("pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem", "-rawin", "-in", "pae", "-sigfile", "sig")).toContain(
      "Signature Verified Successfully",
    );
    // And it refuses the same signature over other bytes, so the line above is not a constant.
    writeFileSync(join(dir, "pae"), paeBySpec(envelope.payloadType, Buffer.concat([body, Buffer.from(" ")])));
    expect(() => openssl("pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem", "-rawin", "-in", "pae", "-sigfile", "sig")).toThrow();
  });

  it("we verify a signature OpenSSL made with a key it generated", () => {
    openssl("genpkey", "-algorithm", "ed25519", "-out", "key.pem");
    openssl("pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem");
    const body = Buffer.from(JSON.stringify(STATEMENT), "utf8");
    writeFileSync(join(dir, "pae"), paeBySpec(IN_TOTO_PAYLOAD_TYPE, body));
    execFileSync("openssl", ["pkeyutl", "-sign", "-inkey", "key.pem", "-rawin", "-in", "pae", "-out", "sig"], { cwd: dir });
    const publicKeyPem = readFileSync(join(dir, "pub.pem"), "utf8");
    const keyId = keyIdOf(publicKeyPem);
    const envelope = {
      payload: body.toString("base64"),
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      signatures: [{ keyid: keyId, sig: readFileSync(join(dir, "sig")).toString("base64") }],
    };
    expect(verifyEnvelope(envelope, [{ keyId, publicKeyPem }])).toEqual({ ok: true, statement: STATEMENT, keyId });
    expect(preAuthEncoding(IN_TOTO_PAYLOAD_TYPE, body)).toEqual(readFileSync(join(dir, "pae")));
  });
});
