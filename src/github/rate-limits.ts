/**
 * GitHub's limits, handled the way GitHub asks (docs: "Best practices for using the REST API"):
 * mutating requests one at a time per installation, at least a second apart; on a primary or a
 * secondary rate limit, wait for `retry-after` (or until the reset) and retry, a bounded number of
 * times; 5xx and network failures are retried with backoff. Pure settings and one decision, so the
 * schedule is unit-testable and tests can shrink the clock without changing the shape.
 */
export interface GitHubLimits {
  /** How often one request is retried after a rate limit. */
  maxLimitRetries: number;
  /** A wait longer than this (seconds) is not waited for: the request fails and says so. */
  maxWaitSeconds: number;
  /** Milliseconds per second of GitHub's `retry-after`: 1000, except in tests. */
  secondMs: number;
  /** Minimum time between two writes of one installation (GitHub asks for at least 1 s). */
  writeSpacingMs: number;
  /** Minimum time between two writes that notify people (comments): the throttling plugin's 3 s. */
  notifySpacingMs: number;
  /** Retries of a 5xx or a connection failure (Octokit's retry plugin, quadratic backoff). */
  serverRetries: number;
}

export const PRODUCTION_LIMITS: GitHubLimits = {
  maxLimitRetries: 3,
  maxWaitSeconds: 600,
  secondMs: 1000,
  writeSpacingMs: 1000,
  notifySpacingMs: 3000,
  serverRetries: 3,
};

export type LimitKind = "primary" | "secondary";

/** Whether a rate-limited request waits `retryAfter` seconds and tries again. */
export function retryAfterLimit(retryAfter: number, retryCount: number, limits: GitHubLimits): boolean {
  return retryCount < limits.maxLimitRetries && retryAfter <= limits.maxWaitSeconds;
}
