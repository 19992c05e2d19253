import type { ProbotOctokit } from "probot";

/** The installation-authenticated client every GitHub module takes (Probot's, with REST + GraphQL). */
export type Octokit = InstanceType<typeof ProbotOctokit>;

/**
 * Probot 14 ignores `throttle: { enabled: false }` in the object form of `defaults` (probot#2039):
 * every write then waits seconds. The function form merges into the plugin options and works.
 * Retries are off because every side effect here is made idempotent by the caller instead.
 */
export function quietOctokit(base: typeof ProbotOctokit): typeof ProbotOctokit {
  return base.defaults((o: any) => ({ ...o, retry: { enabled: false }, throttle: { ...o?.throttle, enabled: false } })) as typeof ProbotOctokit;
}
