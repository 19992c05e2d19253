import { z } from "zod";

/**
 * What the scripted human does at each park, in order. A plan park takes `approve_plan` or
 * `revise`; a write park takes `approve_writes`, `deny_writes` or `approve_all_writes`; a test-integrity
 * park takes `approve_integrity` or `deny_integrity` (the fallback never answers it).
 */
export const ApprovalStepSchema = z
  .union([
    z.literal("approve_plan").describe("Approve the plan that is waiting (bound to its hash)."),
    z.literal("approve_writes").describe("Approve the pending batch of writes/commands (bound to its digest)."),
    z.literal("approve_all_writes").describe("Like the `agent:writes-approved` label: approve this batch and every later one."),
    z.object({ revise: z.string().min(1).describe("Send the plan back with this feedback.") }).strict(),
    z.object({ deny_writes: z.string().min(1).describe("Deny the pending batch with this reason.") }).strict(),
    z.literal("approve_integrity").describe("Approve the waiting test_integrity request (bound to its digest): the weakened tests are published."),
    z.object({ deny_integrity: z.string().min(1).describe("Deny the waiting test_integrity request with this reason.") }).strict(),
  ])
  .transform((a): Approval => {
    if (typeof a === "string") return { action: a };
    if ("revise" in a) return { action: "revise", feedback: a.revise };
    if ("deny_integrity" in a) return { action: "deny_integrity", reason: a.deny_integrity };
    return { action: "deny_writes", reason: a.deny_writes };
  });

export type Approval =
  | { action: "approve_plan" }
  | { action: "revise"; feedback: string }
  | { action: "approve_writes" }
  | { action: "approve_all_writes" }
  | { action: "deny_writes"; reason: string }
  | { action: "approve_integrity" }
  | { action: "deny_integrity"; reason: string };

/** Which park an approval answers. */
export function approvalParkKind(a: Approval): "plan" | "writes" | "integrity" {
  if (a.action === "approve_integrity" || a.action === "deny_integrity") return "integrity";
  return a.action === "approve_plan" || a.action === "revise" ? "plan" : "writes";
}

/**
 * When the scripted approvals run out or do not fit the park: `stop` leaves the session parked (the
 * case then ends as `awaiting_human`); `approve` approves whatever waits — useful with a real model,
 * whose number of write batches is not known in advance.
 */
export const ApprovalFallbackSchema = z.enum(["stop", "approve"]);
export type ApprovalFallback = z.infer<typeof ApprovalFallbackSchema>;
