/**
 * Redaction: the last step before any text leaves the process (check run, PR comment, exported
 * trace, span). Patterns catch credentials we can recognise by shape; `secrets` catches the values
 * we know (from the environment) whatever their shape.
 */

import { MIN_SECRET_LENGTH } from "./secrets.js";

export { secretsFromEnv, MIN_SECRET_LENGTH } from "./secrets.js";

export type RedactionKind =
  | "github_token"
  | "github_pat"
  | "openai_key"
  | "private_key"
  | "url_credential"
  | "authorization"
  | "secret";

const mark = (kind: RedactionKind): string => `[REDACTED:${kind}]`;

interface Rule {
  kind: RedactionKind;
  pattern: RegExp;
  /** Replacement keeping a non-secret prefix (group 1) when the pattern has one. */
  keepPrefix?: boolean;
}

// The lookbehinds stop a match inside a longer identifier (`myghp_x…` is not a token boundary).
const RULES: Rule[] = [
  // A PEM block; an unterminated one (cut by truncation upstream) is redacted to the end of the text.
  {
    kind: "private_key",
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  },
  { kind: "github_pat", pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{20,}/g },
  { kind: "github_token", pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9_]{16,}/g },
  { kind: "openai_key", pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g },
  // `https://x-access-token:<token>@github.com/…` and any other `scheme://user:password@host`.
  { kind: "url_credential", pattern: /(x-access-token:)[^@\s/]+(?=@)/gi, keepPrefix: true },
  // The lookbehind and the bounded scheme keep this linear: without them a long run of letters is
  // rescanned from every position (quadratic on a megabyte of tool output).
  {
    kind: "url_credential",
    pattern: /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi,
    keepPrefix: true,
  },
  // Header lines, also as they appear in JSON or logged objects (`"authorization": "Bearer …"`).
  {
    kind: "authorization",
    // Quotes may be JSON-escaped (`\"`) when the header sits inside a serialised string.
    pattern: /(authorization(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?:Bearer|token|Basic)\s+)[A-Za-z0-9._~+/=-]+/gi,
    keepPrefix: true,
  },
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces every recognised credential and every configured secret value with `[REDACTED:<kind>]`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  // A secret with quotes, backslashes or newlines also appears JSON-escaped inside serialised tool
  // arguments; both forms are looked for.
  const forms = secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  const known = [...new Set(forms)].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const s of known) {
    if (out.includes(s)) out = out.replace(new RegExp(escapeRegExp(s), "g"), mark("secret"));
  }
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (_m: string, prefix: unknown) =>
      rule.keepPrefix && typeof prefix === "string" ? prefix + mark(rule.kind) : mark(rule.kind),
    );
  }
  return out;
}

/**
 * Returns a copy of `value` with every string (keys included) redacted. Plain objects and arrays are
 * walked; other values (numbers, Dates, class instances) are returned as they are. Cycles are kept.
 */
export function redactDeep<T>(value: T, secrets: readonly string[] = []): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v, secrets);
    if (v === null || typeof v !== "object") return v;
    if (seen.has(v)) return seen.get(v);
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      seen.set(v, arr);
      for (const item of v) arr.push(walk(item));
      return arr;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const obj: Record<string, unknown> = {};
    seen.set(v, obj);
    for (const [k, item] of Object.entries(v)) obj[redact(k, secrets)] = walk(item);
    return obj;
  };
  return walk(value) as T;
}
