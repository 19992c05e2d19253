/**
 * Redaction: the last step before any text leaves the process (GitHub bodies, exported trace, spans,
 * logs, the CLI's terminal). Three layers, each catching what the others cannot: the values we know
 * (configured secrets and the app's own tokens, whatever their shape), our own patterns for shapes
 * whose marker names matter or that secretlint lacks (./secret-patterns.ts), and the rules of
 * secretlint's maintained recommended preset (./secretlint.ts).
 */

import { SECRET_PATTERNS } from "./secret-patterns.js";
import { MIN_SECRET_LENGTH } from "./secrets.js";
import { secretlintFindings } from "./secretlint.js";

export { secretsFromEnv } from "./secrets.js";

/** Our own kinds (./secret-patterns.ts), `secret` for a known value, or a secretlint rule's name (`aws`, `npm`, `slack`…). */
type RedactionKind = string;

const MARK = "[REDACTED:";
const mark = (kind: RedactionKind): string => `${MARK}${kind}]`;

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
  for (const rule of SECRET_PATTERNS) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (_m: string, prefix: unknown) =>
      rule.keepPrefix && typeof prefix === "string" ? prefix + mark(rule.kind) : mark(rule.kind),
    );
  }
  return redactFindings(out);
}

/**
 * secretlint's findings, each redacted over its reported range and wherever the value it named
 * occurs (a rule's range may cover the key's name and only part of the key). A finding over text
 * that is already a marker (a URL whose password we redacted) is left as it is.
 */
function redactFindings(text: string): string {
  const spans: { start: number; end: number; kind: string }[] = [];
  for (const f of secretlintFindings(text)) {
    if (text.slice(f.start, f.end).includes(MARK)) continue;
    spans.push({ start: f.start, end: f.end, kind: f.rule });
    for (const v of f.values) {
      if (v.includes(MARK)) continue;
      for (let at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + v.length)) spans.push({ start: at, end: at + v.length, kind: f.rule });
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = "";
  let at = 0;
  for (const s of spans) {
    if (s.end <= at) continue;
    out += text.slice(at, Math.max(at, s.start)) + (s.start >= at ? mark(s.kind) : "");
    at = s.end;
  }
  return out + text.slice(at);
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
