import Bottleneck from "bottleneck";
import type { ProbotOctokit } from "probot";
import { retryAfterLimit, type GitHubLimits, type LimitKind } from "./rate-limits.js";

/** The installation-authenticated client every GitHub module takes (Probot's, with REST + GraphQL). */
export type Octokit = InstanceType<typeof ProbotOctokit>;

interface LimitLog {
  warn(message: string): void;
}

/**
 * Probot's Octokit with throttling and retries on, deciding as ./rate-limits.ts says. Probot's own
 * default gives up on a secondary limit; this waits and retries. The function form of `defaults` is
 * the one that reaches the plugins (probot#2039: the object form's `throttle` is ignored).
 *
 * The write and notification spacing are Bottleneck groups keyed by installation (Probot sets the
 * throttle id to the installation id), shared by every client this class makes.
 */
export function patchgateOctokit(base: typeof ProbotOctokit, limits: GitHubLimits): typeof ProbotOctokit {
  const group = (minTime: number) => new Bottleneck.Group({ maxConcurrent: 1, minTime });
  const write = group(limits.writeSpacingMs);
  const notifications = group(limits.notifySpacingMs);
  const handler = (kind: LimitKind) => (retryAfter: number, options: { method: string; url: string }, octokit: { log: LimitLog }, retryCount: number) => {
    const again = retryAfterLimit(retryAfter, retryCount, limits);
    octokit.log.warn(
      `GitHub ${kind} rate limit on ${options.method} ${options.url}: ${again ? `retrying in ${retryAfter} s (retry ${retryCount + 1} of ${limits.maxLimitRetries})` : "giving up"}`,
    );
    return again;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Octokit types a plugin's defaults function loosely
  return base.defaults((o: any) => ({
    ...o,
    retry: { ...o?.retry, enabled: true, retries: limits.serverRetries, retryAfterBaseValue: limits.secondMs },
    throttle: {
      ...o?.throttle,
      enabled: true,
      write,
      notifications,
      retryAfterBaseValue: limits.secondMs,
      onRateLimit: handler("primary"),
      onSecondaryRateLimit: handler("secondary"),
    },
  })) as typeof ProbotOctokit;
}
