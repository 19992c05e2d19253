/**
 * Credential shapes Patchgate recognises itself, before the secretlint rules run (./secretlint.ts):
 * the ones whose marker names our tests and logs rely on (GitHub, OpenAI, PEM, URL and header
 * credentials), and the shapes secretlint's recommended preset has no rule for (Stripe, JWT, Google
 * API keys). Each pattern is linear: a lookbehind or a fixed prefix anchors it, so a megabyte of
 * tool output is scanned once, not from every position.
 */
export interface SecretPattern {
  kind: string;
  pattern: RegExp;
  /** Replacement keeping a non-secret prefix (group 1) when the pattern has one. */
  keepPrefix?: boolean;
}

// The lookbehinds stop a match inside a longer identifier (`myghp_x…` is not a token boundary).
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // A PEM block; an unterminated one (cut by truncation upstream) is redacted to the end of the text.
  { kind: "private_key", pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { kind: "github_pat", pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g },
  { kind: "github_token", pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9_]{16,}/g },
  { kind: "openai_key", pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g },
  // Stripe secret and restricted keys, live and test (`sk_live_…`, `rk_test_…`).
  { kind: "stripe_key", pattern: /(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  // A JSON Web Token: two base64url JSON segments (`eyJ` is `{"`) and a signature.
  { kind: "jwt", pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // Google API keys (GCP, Firebase, Maps): `AIza` and 35 more characters.
  { kind: "gcp_api_key", pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g },
  // `https://x-access-token:<token>@github.com/…` and any other `scheme://user:password@host`.
  { kind: "url_credential", pattern: /(x-access-token:)[^@\s/]+(?=@)/gi, keepPrefix: true },
  // The lookbehind and the bounded scheme keep this linear: without them a long run of letters is
  // rescanned from every position (quadratic on a megabyte of tool output).
  { kind: "url_credential", pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi, keepPrefix: true },
  // Header lines, also as they appear in JSON or logged objects (`"authorization": "Bearer …"`).
  // Quotes may be JSON-escaped (`\"`) when the header sits inside a serialised string.
  {
    kind: "authorization",
    pattern: /(authorization(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?:Bearer|token|Basic)\s+)[A-Za-z0-9._~+/=-]+/gi,
    keepPrefix: true,
  },
];
