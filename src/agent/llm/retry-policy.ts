/** When and how long to wait before retrying an LLM call. Pure, so the schedule is unit-testable. */

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** Timeouts, connection failures (status null), 408, 409, 429 and 5xx are transient; 400/401/403/404/422 are not. */
export function isRetryableStatus(status: number | null): boolean {
  if (status === null) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * A 429 that waiting does not cure: the account has no quota or credit left (OpenAI's
 * `insufficient_quota`, a billing hard limit). Retrying only spends time; the session fails at once
 * and says why.
 */
const NOT_TRANSIENT_CODES = new Set(["insufficient_quota", "billing_hard_limit_reached", "billing_not_active", "access_terminated"]);

export function isNonTransientCode(code: string | null | undefined): boolean {
  return code !== null && code !== undefined && NOT_TRANSIENT_CODES.has(code);
}

/** Parses `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(headers: Record<string, string | undefined>, now = Date.now()): number | null {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers["retry-after"];
  if (value === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter; a server's retry-after wins when present (capped so a hostile
 * or broken header cannot park a worker for hours).
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | null, policy: RetryPolicy, random = Math.random): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs * 2);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
