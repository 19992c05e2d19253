import type { Approver } from "../session/types.js";

/**
 * Who may approve, beyond write access: with `approvals.plan` / `approvals.writes` set to
 * `not_requester` (and `approvals.grants` likewise) in `.github/patchgate.yml`, the person who asked for the session cannot be the one
 * who approves its plan or its writes (as GitHub enforces for a pull request's own author): a second
 * maintainer must. Denying and asking for changes stay open to everyone with write access.
 */
export type ApprovalKind = "plan" | "writes" | "grants";

/** The repository config's `approvals` (src/config/repo-config.ts), as much of it as the rule reads. */
export interface ApprovalSettings {
  approvals: Record<ApprovalKind, "any" | "not_requester">;
}

export function approverRefusal(config: ApprovalSettings, kind: ApprovalKind, by: Approver, requester: string | null): string | null {
  if (config.approvals[kind] !== "not_requester" || requester === null || by.login !== requester) return null;
  const what = kind === "plan" ? "the plan" : kind === "grants" ? "this grant" : "these writes";
  return `@${by.login} asked for this session, so someone else with write access has to approve ${what} (\`.github/patchgate.yml\`: \`approvals.${kind}: not_requester\`). Nothing was approved.`;
}
