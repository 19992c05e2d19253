import { z } from "zod";

/**
 * The receipt's predicate (`https://patchgate.dev/receipt/v1`): what the runtime recorded about the
 * session that made the commit, derived from its ledger. Hashes, ids, logins and command lines only:
 * no prompt text, no file content, no secret (commands are redacted before they are written).
 */

const Approval = z.object({
  login: z.string().describe("who decided: a GitHub login, the terminal's user, or the flag's name"),
  via: z.enum(["cli", "flag", "comment", "review", "label", "check_run", "eval", "auto", "automation"]).describe("how the decision was given"),
  source: z.string().optional().describe("the GitHub object it came from (`comment:<id>`…)"),
  how: z.string().optional().describe("an automation's approval in words: `automation <name> in .github/patchgate.yml@<sha>, last changed by @<login>`"),
  at: z.string().describe("when it was recorded (ISO 8601)"),
  seq: z.number().int().describe("the ledger event that recorded it"),
});

const PublishedPath = z.object({
  path: z.string(),
  blob: z.string().nullable().describe("the git blob id in the published tree; null: the path is deleted"),
  seq: z.number().int().nullable().describe("the ledger event that last wrote it (file_written or command_changed)"),
});

const WriteBatch = z.object({
  digest: z.string().describe("the batch digest the approval was bound to"),
  decision: z.enum(["granted", "denied"]),
  approvedBy: Approval,
});

const ApprovedCommand = z.object({
  digest: z.string().describe("the batch it was approved in"),
  tool: z.string(),
  command: z.string().describe("what was judged, redacted"),
});

const TestRunRecord = z.object({
  command: z.string(),
  tree: z.string().describe("the git tree id the run saw"),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  failing: z.number().int().nullable().describe("failing tests by count; null: the output named none"),
  seq: z.number().int(),
});

const PolicyDecision = z.object({
  seq: z.number().int(),
  tool: z.string(),
  decision: z.enum(["allow", "ask", "deny"]),
  rule: z.string(),
});

export const ReceiptPredicateSchema = z.object({
  kind: z.enum(["plan", "result"]).describe("a plan commit (no change to the tree) or the session's result"),
  sessionId: z.string(),
  repository: z.object({
    name: z.string(),
    id: z.number().int().nullable().describe("GitHub's id of the repository; null for a local run"),
    installationId: z.number().int().nullable(),
    requester: z.string().nullable(),
  }),
  baseCommit: z.string(),
  tree: z.string().describe("the published tree id: the commit's own tree"),
  paths: z.array(PublishedPath).describe("every path the commit changes against its parent, sorted"),
  plan: z.object({ hash: z.string(), approvedBy: Approval.nullable() }).nullable(),
  writeBatches: z.array(WriteBatch),
  writesAutoApproved: Approval.nullable().describe("every later write allowed at once (the label), when given"),
  approvedCommands: z.array(ApprovedCommand),
  testRuns: z.array(TestRunRecord).describe("the runs on the published tree"),
  finish: z
    .object({ tree: z.string(), preExistingFailures: z.array(z.string()).describe("failing tests the gate let through as failing on the base tree too") })
    .nullable()
    .describe("the tree finish was accepted on"),
  policy: z.object({ digest: z.string().describe("sha256 of the session's policy settings"), decisions: z.array(PolicyDecision) }),
  model: z.object({
    name: z.string(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    calls: z.number().int(),
    costUsd: z.number().nullable(),
  }),
  patchgateVersion: z.string(),
  ledgerHead: z.string().nullable().describe("the hash of the ledger's last event when the receipt was made"),
  previousReceipt: z.string().nullable().describe("sha256 of the envelope on the commit this one builds on, if it had one"),
  testIntegrity: z
    .object({
      digest: z.string().describe("what the approval of the findings is bound to"),
      detectorsRun: z.number().int(),
      testFilesExamined: z.number().int(),
      findings: z.array(z.object({ kind: z.string(), detector: z.string(), path: z.string().nullable(), message: z.string() })),
      approvedBy: Approval.nullable().describe("who approved the findings; null when there were none"),
    })
    .nullable()
    .optional()
    .describe("the test-integrity verdict finish was accepted with on this tree (no diff lines: they are content)"),
  grants: z
    .array(
      z.object({
        kind: z.enum(["host", "budget", "time"]),
        target: z.string().describe("the host, the dollars added to the cost budget, or the seconds per run"),
        digest: z.string().describe("what the approval is bound to"),
        approvedBy: Approval,
      }),
    )
    .optional()
    .describe("what a human granted the session when its agent asked (request_grant); each lasted for this session only"),
  budgetRaises: z
    .array(
      z.object({
        usd: z.number().describe("the dollars added to the operator's monthly USD ceilings, for this session only"),
        ceiling: z
          .object({
            scope: z.enum(["installation", "repository"]),
            unit: z.enum(["usd", "tokens"]),
            ceiling: z.number().describe("the operator's monthly ceiling the session was parked at"),
            spent: z.number().describe("what the scope had spent this month when it parked"),
          })
          .nullable()
          .describe("the ceiling the raise lifted; null: raised while the session ran, before it reached one"),
        approvedBy: Approval,
      }),
    )
    .optional()
    .describe("each `/agent budget +<usd>` a write-access human gave the session past the operator's monthly ceilings"),
});

export type ReceiptPredicate = z.infer<typeof ReceiptPredicateSchema>;
export type ReceiptApproval = z.infer<typeof Approval>;
