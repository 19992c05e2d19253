import type { CommitVerdict } from "../receipt/verify-commit.js";
import { formatUsd } from "../safety/markdown.js";

type Raise = NonNullable<CommitVerdict["budgetRaises"]>[number];

/**
 * What `patchgate verify` says of each raise a receipt records: past the operator's ceilings, someone
 * let the session spend more, and the reader of a verified commit should see who.
 */
export function budgetRaiseLines(v: CommitVerdict): string[] {
  return (v.budgetRaises ?? []).map(
    (r) => `budget raised by ${formatUsd(r.usd)} for this session by ${r.approvedBy.login} via ${r.approvedBy.via} at ${r.approvedBy.at}${lifted(r)}`,
  );
}

function lifted(r: Raise): string {
  const c = r.ceiling;
  if (c === null) return ", before it reached a ceiling";
  const amount = (n: number) => (c.unit === "usd" ? formatUsd(n) : `${n} tokens`);
  return `, parked at the ${c.scope}'s monthly ceiling of ${amount(c.ceiling)} (${amount(c.spent)} spent)`;
}
