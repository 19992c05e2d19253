import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyIdOf } from "../../src/receipt/key-id.js";
import { loadSigningKeys, publicKeysDocument, rotateSigningKey, signingKeyDir } from "../../src/receipt/signing-key.js";
import { redact, secretsFromEnv } from "../../src/safety/redact.js";
import { sandboxEnv } from "../../src/sandbox/env-policy.js";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "pg-signing-"));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const pemOf = (type: "ed25519" | "rsa") =>
  (type === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 1024 }) : generateKeyPairSync("ed25519")).privateKey
    .export({ type: "pkcs8", format: "pem" })
    .toString();

describe("loadSigningKeys from the data directory", () => {
  it("creates one Ed25519 key on first use, readable by its owner only, and reads the same key after", () => {
    const first = loadSigningKeys({ dataDir, env: {} });
    expect(first.current.privateKey.asymmetricKeyType).toBe("ed25519");
    expect(first.current.keyId).toBe(keyIdOf(first.current.publicKeyPem));
    expect(first.current.keyId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(statSync(join(signingKeyDir(dataDir), "current.pem")).mode & 0o777).toBe(0o600);
    expect(statSync(signingKeyDir(dataDir)).mode & 0o777).toBe(0o700);
    expect(readdirSync(signingKeyDir(dataDir))).toEqual(["current.pem"]);
    expect(loadSigningKeys({ dataDir, env: {} }).current.keyId).toBe(first.current.keyId);
    expect(first.retired).toEqual([]);
  });

  it("names the file of a key that is not Ed25519", () => {
    loadSigningKeys({ dataDir, env: {} });
    const path = join(signingKeyDir(dataDir), "current.pem");
    writeFileSync(path, pemOf("rsa"));
    expect(() => loadSigningKeys({ dataDir, env: {} })).toThrow(`${path}: an rsa key; receipts are signed with Ed25519`);
  });
});

describe("loadSigningKeys from the environment", () => {
  it("takes PATCHGATE_SIGNING_KEY, with literal \\n as Probot's PRIVATE_KEY allows, and creates nothing", () => {
    const pem = pemOf("ed25519");
    const keys = loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY: pem.replace(/\n/g, "\\n") } });
    expect(keys.current.keyId).toBe(keyIdOf(pem));
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("takes PATCHGATE_SIGNING_KEY_FILE", () => {
    const pem = pemOf("ed25519");
    const file = join(dataDir, "key.pem");
    writeFileSync(file, pem);
    expect(loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY_FILE: file } }).current.keyId).toBe(keyIdOf(pem));
  });

  it("fails with one line naming the variable, never the key", () => {
    expect(() => loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY: "not a key at all" } })).toThrow("PATCHGATE_SIGNING_KEY: not a private key in PEM");
    expect(() => loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY: pemOf("rsa") } })).toThrow(
      "PATCHGATE_SIGNING_KEY: an rsa key; receipts are signed with Ed25519",
    );
    const missing = join(dataDir, "nope.pem");
    expect(() => loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY_FILE: missing } })).toThrow(`PATCHGATE_SIGNING_KEY_FILE ${missing}: ENOENT`);
    expect(() => loadSigningKeys({ dataDir, env: { PATCHGATE_SIGNING_KEY: pemOf("ed25519"), PATCHGATE_SIGNING_KEY_FILE: missing } })).toThrow(
      "set PATCHGATE_SIGNING_KEY or PATCHGATE_SIGNING_KEY_FILE, not both",
    );
  });
});

describe("rotateSigningKey", () => {
  it("signs with a new key from then on and keeps the old public key listed with the date it stopped", () => {
    const before = loadSigningKeys({ dataDir, env: {} });
    const at = new Date("2026-12-06T07:00:00.000Z");
    const after = rotateSigningKey(dataDir, {}, at);
    expect(after.current.keyId).not.toBe(before.current.keyId);
    expect(after.retired).toEqual([{ keyId: before.current.keyId, publicKeyPem: before.current.publicKeyPem, retiredAt: "2026-12-06T07:00:00.000Z" }]);
    expect(loadSigningKeys({ dataDir, env: {} })).toEqual(after);
    expect(publicKeysDocument(after)).toEqual({
      current: after.current.keyId,
      keys: [
        { keyId: after.current.keyId, algorithm: "ed25519", publicKeyPem: after.current.publicKeyPem, retiredAt: null },
        { keyId: before.current.keyId, algorithm: "ed25519", publicKeyPem: before.current.publicKeyPem, retiredAt: "2026-12-06T07:00:00.000Z" },
      ],
    });
    expect(statSync(join(signingKeyDir(dataDir), "retired.json")).mode & 0o777).toBe(0o600);
  });

  it("is refused while the key comes from the environment", () => {
    expect(() => rotateSigningKey(dataDir, { PATCHGATE_SIGNING_KEY: pemOf("ed25519") })).toThrow(
      /^the signing key comes from PATCHGATE_SIGNING_KEY: rotate it there/,
    );
  });

  it("recomputes a retired key's id rather than trusting the file's", () => {
    const before = loadSigningKeys({ dataDir, env: {} });
    rotateSigningKey(dataDir, {});
    const file = join(signingKeyDir(dataDir), "retired.json");
    const listed = JSON.parse(readFileSync(file, "utf8")) as { keyId: string }[];
    writeFileSync(file, JSON.stringify(listed.map((r) => ({ ...r, keyId: "sha256:forged" }))));
    expect(loadSigningKeys({ dataDir, env: {} }).retired.map((r) => r.keyId)).toEqual([before.current.keyId]);
  });
});

describe("the private key stays secret", () => {
  it("is redacted by value when it comes from the environment, and by shape when it comes from the data directory", () => {
    const pem = pemOf("ed25519");
    expect(secretsFromEnv({ PATCHGATE_SIGNING_KEY: pem })).toContain(pem.trim());
    loadSigningKeys({ dataDir, env: {} });
    const fromDir = readFileSync(join(signingKeyDir(dataDir), "current.pem"), "utf8");
    const body = fromDir.split("\n")[1];
    expect(redact(`leaked: ${fromDir}`)).not.toContain(body);
  });

  it("cannot reach a sandbox's environment under its own name or any other", () => {
    const pem = pemOf("ed25519");
    const { env, refused } = sandboxEnv({
      PATCHGATE_SIGNING_KEY: pem,
      PATCHGATE_SIGNING_KEY_FILE: "/data/key.pem",
      INNOCENT: pem,
      ANY_NAME: pem.replace(/\n/g, "\\n"),
    });
    expect(refused.sort()).toEqual(["ANY_NAME", "INNOCENT", "PATCHGATE_SIGNING_KEY", "PATCHGATE_SIGNING_KEY_FILE"]);
    expect(JSON.stringify(env)).not.toContain("PRIVATE KEY");
  });
});
