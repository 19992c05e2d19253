/**
 * The registry of secret values this process knows about. Redaction by pattern catches credentials
 * with a recognisable shape; this list catches the rest (webhook secret, database password, a token
 * of an unknown format) by exact value.
 */

/** Shorter values would redact ordinary words and numbers all over the trace. */
export const MIN_SECRET_LENGTH = 6;

/** Variables that are secret by name in Probot and Patchgate configurations. */
const SECRET_NAMES = new Set([
  "OPENAI_API_KEY",
  "PATCHGATE_REASONING_KEY",
  "PATCHGATE_SIGNING_KEY",
  "WEBHOOK_SECRET",
  "PRIVATE_KEY",
  "GITHUB_CLIENT_SECRET",
  "GH_TOKEN",
  "NPM_TOKEN",
]);

/** Name shapes that hold secrets: GITHUB_TOKEN, GITHUB_APP_TOKEN_X, FOO_API_KEY, BAR_SECRET, BAZ_PASSWORD… */
const SECRET_NAME_PATTERNS = [/^GITHUB_.*TOKEN/, /(^|_)(API_KEY|SECRET|PASSWORD|PASSWD|TOKEN|ACCESS_KEY)(_|$)/];

/** Names that match the shapes above but hold a location, not the secret itself. */
const NOT_SECRET_SUFFIXES = ["_PATH", "_FILE", "_URL", "_ENDPOINT"];

function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_NAMES.has(upper)) return true;
  if (NOT_SECRET_SUFFIXES.some((s) => upper.endsWith(s))) return false;
  return SECRET_NAME_PATTERNS.some((p) => p.test(upper));
}

/** The password of `scheme://user:password@host/…` (DATABASE_URL and friends), raw and decoded. */
function urlPasswords(value: string): string[] {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return [];
  try {
    const password = new URL(value).password;
    if (!password) return [];
    let decoded = password;
    try {
      decoded = decodeURIComponent(password);
    } catch {
      // A malformed %-escape: the raw form is still worth redacting.
    }
    return [password, decoded];
  } catch {
    return [];
  }
}

/**
 * Values of secret-looking variables. A PEM given with literal `\n` (as Probot accepts it) is also
 * registered in its unescaped form, since that is how it appears once read. Purely numeric values
 * are skipped: they are limits and ids, and redacting them would blank numbers all over the trace.
 */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const found: string[] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (!raw) continue;
    const value = raw.trim();
    found.push(...urlPasswords(value));
    if (!isSecretName(name)) continue;
    found.push(value);
    if (value.includes("\\n")) found.push(value.replace(/\\n/g, "\n"));
  }
  const unique = [...new Set(found)];
  return unique.filter((v) => v.length >= MIN_SECRET_LENGTH && !/^\d+$/.test(v));
}
