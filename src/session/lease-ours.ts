import type { BranchLease } from "./state.js";

/**
 * The commits Patchgate put on `branch`, with `commit` added once: a commit first recorded as about to
 * be pushed (`branch_push_intended`) and then as pushed stays one entry. Another branch starts afresh.
 */
export function withOurs(lease: BranchLease | null, branch: string, commit: string): string[] {
  const ours = lease?.branch === branch ? lease.ours : [];
  return ours.includes(commit) ? ours : [...ours, commit];
}
