import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TrustedKey } from "../receipt/envelope.js";
import { loadSigningKeys, type SigningKeys } from "../receipt/signing-key.js";

/**
 * What the app needs for receipts: the deployment's signing keys (loaded once at start from the shared
 * data directory or the environment; several workers share one key) and where its receipt clones
 * live, one bare repository per tenant.
 */
export interface ReceiptSettings {
  keys: SigningKeys;
  /** `<dataDir>/receipts`. */
  dir: string;
  /** Where `GET /patchgate/keys` is reachable from outside, for the check run's verification line; unknown: null. */
  keysUrl: string | null;
  /** Patchgate's version, as each receipt records it. */
  version: string;
}

export function receiptSettings(dataDir: string, env: NodeJS.ProcessEnv): ReceiptSettings {
  const base = publicUrlFromEnv(env);
  const keysUrl = base === null ? null : new URL("patchgate/keys", base.endsWith("/") ? base : `${base}/`).href;
  return { keys: loadSigningKeys({ dataDir, env }), dir: join(dataDir, "receipts"), keysUrl, version: packageVersion() };
}

/**
 * PATCHGATE_PUBLIC_URL: where the app is reachable from outside (a path prefix kept), or null when
 * unset. Only an http(s) URL is accepted: anything else would be printed in every check run as the
 * place to fetch the key from, so it stops the app at start, naming the variable.
 */
export function publicUrlFromEnv(env: Readonly<Record<string, string | undefined>>): string | null {
  const raw = env.PATCHGATE_PUBLIC_URL;
  if (raw === undefined || raw.trim() === "") return null;
  const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : null;
  if (
    url === null ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username !== "" ||
    url.password !== "" ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw new Error(`PATCHGATE_PUBLIC_URL must be the app's http(s) base URL (no credentials, query or fragment), not ${JSON.stringify(raw)}`);
  }
  return url.href;
}

/** The package's version, from package.json two levels up, in src/ and in dist/ alike. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
}

/** Every key a receipt of this deployment may be signed with: the current one and the retired ones. */
export function trustedKeys(keys: SigningKeys): TrustedKey[] {
  return [keys.current, ...keys.retired].map((k) => ({ keyId: k.keyId, publicKeyPem: k.publicKeyPem }));
}
