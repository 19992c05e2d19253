import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keyIdOf, publicPemOf } from "./key-id.js";
import { ReceiptError } from "./receipt-error.js";

/**
 * The deployment's receipt signing key: Ed25519, never the GitHub App's key. It comes from
 * `PATCHGATE_SIGNING_KEY` (PEM) or `PATCHGATE_SIGNING_KEY_FILE`, or else from the data directory,
 * where the first process that needs one creates it. Retired public keys stay listed with the date
 * they stopped signing, so receipts they signed still verify.
 */
export interface SigningKeys {
  current: { keyId: string; privateKey: KeyObject; publicKeyPem: string };
  retired: RetiredKey[];
}

interface RetiredKey {
  keyId: string;
  publicKeyPem: string;
  /** ISO 8601: from then on another key signs. */
  retiredAt: string;
}

/** What the keys route serves and `patchgate keys --json` prints. */
export interface PublicKeysDocument {
  current: string;
  keys: { keyId: string; algorithm: "ed25519"; publicKeyPem: string; retiredAt: string | null }[];
}

const KEY_DIR = "signing-key";
const CURRENT = "current.pem";
const RETIRED = "retired.json";

export function signingKeyDir(dataDir: string): string {
  return join(dataDir, KEY_DIR);
}

export function loadSigningKeys(opts: { dataDir: string; env: NodeJS.ProcessEnv }): SigningKeys {
  const fromEnv = keyFromEnv(opts.env);
  const privateKey = fromEnv ?? keyFromDataDir(opts.dataDir);
  const publicKey = createPublicKey(privateKey);
  const keyId = keyIdOf(publicKey);
  const retired = readRetired(opts.dataDir).filter((r) => r.keyId !== keyId);
  return { current: { keyId, privateKey, publicKeyPem: publicPemOf(publicKey) }, retired };
}

/**
 * A new key signs from now on; the old one's public half is listed as retired first, so a crash in
 * between leaves it listed twice at worst, never lost. Refused while the key comes from the
 * environment: the operator who set it rotates it there.
 */
export function rotateSigningKey(dataDir: string, env: NodeJS.ProcessEnv, now: Date = new Date()): SigningKeys {
  if (keySourceVariable(env) !== null) {
    throw new ReceiptError(
      "rotation_refused",
      `the signing key comes from ${keySourceVariable(env)}: rotate it there (the retired key's public half can be kept in ${join(signingKeyDir(dataDir), RETIRED)})`,
    );
  }
  const old = loadSigningKeys({ dataDir, env });
  const retired = [...old.retired, { keyId: old.current.keyId, publicKeyPem: old.current.publicKeyPem, retiredAt: now.toISOString() }];
  const dir = signingKeyDir(dataDir);
  replaceFile(join(dir, RETIRED), `${JSON.stringify(retired, null, 2)}\n`);
  replaceFile(join(dir, CURRENT), newPrivatePem());
  return loadSigningKeys({ dataDir, env });
}

export function publicKeysDocument(keys: SigningKeys): PublicKeysDocument {
  return {
    current: keys.current.keyId,
    keys: [
      { keyId: keys.current.keyId, algorithm: "ed25519", publicKeyPem: keys.current.publicKeyPem, retiredAt: null },
      ...keys.retired.map((r) => ({ keyId: r.keyId, algorithm: "ed25519" as const, publicKeyPem: r.publicKeyPem, retiredAt: r.retiredAt })),
    ],
  };
}

function keySourceVariable(env: NodeJS.ProcessEnv): string | null {
  if (env.PATCHGATE_SIGNING_KEY) return "PATCHGATE_SIGNING_KEY";
  if (env.PATCHGATE_SIGNING_KEY_FILE) return "PATCHGATE_SIGNING_KEY_FILE";
  return null;
}

function keyFromEnv(env: NodeJS.ProcessEnv): KeyObject | null {
  if (env.PATCHGATE_SIGNING_KEY && env.PATCHGATE_SIGNING_KEY_FILE) {
    throw new ReceiptError("signing_key_invalid", "set PATCHGATE_SIGNING_KEY or PATCHGATE_SIGNING_KEY_FILE, not both");
  }
  if (env.PATCHGATE_SIGNING_KEY) return parsePrivateKey(env.PATCHGATE_SIGNING_KEY.replace(/\\n/g, "\n"), "PATCHGATE_SIGNING_KEY");
  const file = env.PATCHGATE_SIGNING_KEY_FILE;
  if (!file) return null;
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (e) {
    throw new ReceiptError("signing_key_unreadable", `PATCHGATE_SIGNING_KEY_FILE ${file}: ${(e as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  return parsePrivateKey(pem, `PATCHGATE_SIGNING_KEY_FILE ${file}`);
}

/**
 * The data directory's key, created when there is none. Several workers may start at once: each
 * writes a whole key to a file of its own and links it into place, and a link never replaces a file,
 * so exactly one wins and every process then reads that one.
 */
function keyFromDataDir(dataDir: string): KeyObject {
  const dir = signingKeyDir(dataDir);
  const path = join(dir, CURRENT);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const existing = readIfPresent(path);
  if (existing !== null) return parsePrivateKey(existing, path);
  const tmp = join(dir, `.${CURRENT}.${process.pid}.${randomBytes(6).toString("hex")}`);
  writeFileSync(tmp, newPrivatePem(), { mode: 0o600, flag: "wx" });
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  } finally {
    unlinkSync(tmp);
  }
  return parsePrivateKey(readFileSync(path, "utf8"), path);
}

function parsePrivateKey(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new ReceiptError("signing_key_invalid", `${where}: not a private key in PEM`);
  }
  if (key.asymmetricKeyType !== "ed25519") {
    throw new ReceiptError("signing_key_invalid", `${where}: an ${key.asymmetricKeyType ?? "unknown"} key; receipts are signed with Ed25519`);
  }
  return key;
}

function newPrivatePem(): string {
  return generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
}

/** Written beside its place and renamed over it: a reader sees the old file or the new, never half of one. */
function replaceFile(path: string, content: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(tmp, content, { mode: 0o600, flag: "wx" });
  renameSync(tmp, path);
}

function readIfPresent(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ReceiptError("signing_key_unreadable", `${path}: ${(e as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
}

function readRetired(dataDir: string): RetiredKey[] {
  const path = join(signingKeyDir(dataDir), RETIRED);
  const text = readIfPresent(path);
  if (text === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ReceiptError("key_document_invalid", `${path}: not JSON`);
  }
  if (!Array.isArray(parsed) || !parsed.every(isRetiredKey)) {
    throw new ReceiptError("key_document_invalid", `${path}: expected a list of { keyId, publicKeyPem, retiredAt }`);
  }
  // The id is recomputed, not trusted: it is what a receipt's signature is matched against.
  return parsed.map((r) => ({ keyId: keyIdOf(r.publicKeyPem), publicKeyPem: r.publicKeyPem, retiredAt: r.retiredAt }));
}

function isRetiredKey(v: unknown): v is RetiredKey {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  return typeof r.keyId === "string" && typeof r.publicKeyPem === "string" && typeof r.retiredAt === "string";
}
