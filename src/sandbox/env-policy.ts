import { SANDBOX_PATH } from "../toolchain/layouts/system.js";

/**
 * The environment a sandboxed command sees: a fixed allowlist plus the caller's extras, minus anything
 * that looks like a credential. Nothing is inherited from the Patchgate process, whose own environment
 * holds the GitHub private key, the OpenAI key and the database URL.
 */

/** HOME lives on the sandbox's private tmpfs, so tools that write caches there touch nothing on the host. */
export const SANDBOX_HOME = "/tmp/home";

function baseEnv(extraPathDirs: readonly string[] = []): Record<string, string> {
  return {
    PATH: [...extraPathDirs, SANDBOX_PATH].join(":"),
    HOME: SANDBOX_HOME,
    LANG: "C.UTF-8",
    TERM: "dumb",
    CI: "true",
  };
}

// Key names that usually carry credentials. Broad on purpose: a refused harmless variable costs a
// line on stderr; a passed secret costs the repository.
const SECRET_KEY_PARTS = ["TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE"];
// AUTH only as a whole segment, so NODE_AUTH_TOKEN goes and GIT_AUTHOR_NAME stays.
const SECRET_KEY_SEGMENT = /(^|_)(AUTH|COOKIE)(_|$)/;
const SECRET_KEY_PREFIXES = ["GITHUB_", "GH_", "OPENAI_", "AWS_", "AZURE_", "GOOGLE_", "NPM_CONFIG_", "PATCHGATE_"];
const SECRET_KEY_EXACT = ["DATABASE_URL", "WEBHOOK_SECRET", "APP_ID", "PRIVATE_KEY"];

// Values that are credentials whatever their key is called: GitHub tokens, OpenAI-style keys,
// PEM blocks and URLs with a password in them.
const SECRET_VALUE_PATTERNS = [
  /\bgh[opsur]_[A-Za-z0-9]/,
  /\bgithub_pat_/,
  /\bsk-[A-Za-z0-9_-]/,
  /-----BEGIN [A-Z ]*PRIVATE KEY/,
  /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]*@/i,
];

export function looksLikeSecret(key: string, value: string): boolean {
  const k = key.toUpperCase();
  if (SECRET_KEY_EXACT.includes(k)) return true;
  if (SECRET_KEY_PREFIXES.some((p) => k.startsWith(p))) return true;
  if (SECRET_KEY_PARTS.some((p) => k.includes(p)) || SECRET_KEY_SEGMENT.test(k)) return true;
  return SECRET_VALUE_PATTERNS.some((re) => re.test(value));
}

// A key bwrap and `docker -e` can pass unambiguously.
const VALID_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SandboxEnv {
  env: Record<string, string>;
  /** Keys of req.env that were dropped, reported on the run's stderr so the caller can see why. */
  refused: string[];
}

/** The allowlist with `extra` merged over it; secret-looking or malformed entries are dropped. */
export function sandboxEnv(extra: Record<string, string> | undefined, extraPathDirs: readonly string[] = []): SandboxEnv {
  const env = baseEnv(extraPathDirs);
  const refused: string[] = [];
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (!VALID_KEY.test(key) || value.includes("\0") || looksLikeSecret(key, value)) refused.push(key);
    else env[key] = value;
  }
  return { env, refused };
}

/**
 * The sandbox environment with the runtime's own variables on top (cache locations, GOTOOLCHAIN):
 * set by Patchgate, not by a caller, so they skip the secret filter (a cache directory in
 * `npm_config_cache` is no secret) but not the key check.
 */
export function withRuntimeEnv(env: Record<string, string>, runtime: Record<string, string> | undefined): Record<string, string> {
  const out = { ...env };
  for (const [key, value] of Object.entries(runtime ?? {})) if (VALID_KEY.test(key) && !value.includes("\0")) out[key] = value;
  return out;
}

/**
 * Every variable a tool reads the CA bundle's path from, and only these, all pointing at the one file
 * (ca-bundle.ts): Node's extra roots (corepack, Yarn Berry, a script's fetch), OpenSSL's default file
 * (curl, Go, Python's ssl, uv), pip and requests, cargo, git over https, and npm's and pnpm's cafile.
 * Set after the caller's variables, so a repository's setup env cannot point them elsewhere.
 */
export const CA_BUNDLE_VARIABLES = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "PIP_CERT",
  "REQUESTS_CA_BUNDLE",
  "CARGO_HTTP_CAINFO",
  "GIT_SSL_CAINFO",
  "npm_config_cafile",
] as const;

/** The CA variables, each naming `file` (the bundle's path inside the sandbox). */
export function caBundleEnv(file: string): Record<(typeof CA_BUNDLE_VARIABLES)[number], string> {
  return Object.fromEntries(CA_BUNDLE_VARIABLES.map((k) => [k, file])) as Record<(typeof CA_BUNDLE_VARIABLES)[number], string>;
}

export function refusedEnvNotice(refused: readonly string[]): string {
  return refused.length === 0 ? "" : `patchgate-sandbox: refused environment variables that look like secrets: ${refused.join(", ")}\n`;
}
