import { createHash } from "node:crypto";
import { redact } from "../safety/redact.js";
import { canonicalJson } from "../session/canonical-json.js";
import type { StoredEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { ReceiptPredicate } from "./predicate-schema.js";
import { approval } from "./receipt-approval.js";
import { budgetRaisesOf } from "./budget-raises.js";
import { receiptStatement, type ReceiptStatement } from "./statement.js";

/** A path the commit changes against its parent, as git reads it: its blob id, or null when deleted. */
export interface CommitChange {
  path: string;
  blob: string | null;
}

export interface ReceiptInput {
  state: SessionState;
  events: readonly StoredEvent[];
  kind: ReceiptPredicate["kind"];
  commit: string;
  tree: string;
  /** What the commit changes against its parent (notes.ts `commitChanges`). */
  changes: readonly CommitChange[];
  /** owner/name, or the local repository's name. */
  repository: string;
  version: string;
  ledgerHead: string | null;
  /** The digest of the receipt on the commit this one builds on, if it has one. */
  previousReceipt: string | null;
  /** Values to redact from command lines besides the recognised shapes. */
  secrets?: readonly string[];
}

/** The receipt statement of one published commit, from the session's ledger alone. */
export function receiptStatementFor(input: ReceiptInput): ReceiptStatement {
  const { state: s, events } = input;
  const secrets = input.secrets ?? [];
  const source = s.task.source;
  const predicate: ReceiptPredicate = {
    kind: input.kind,
    sessionId: s.sessionId,
    repository: { name: input.repository, id: source.repoId ?? null, installationId: source.installationId ?? null, requester: source.requester ?? null },
    baseCommit: s.baseCommit ?? "",
    tree: input.tree,
    paths: [...input.changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((c) => ({ ...c, seq: lastWriteOf(events, c.path) })),
    plan: planOf(s, events),
    writeBatches: events.flatMap((e) =>
      e.type === "approval_granted" || e.type === "approval_denied"
        ? [{ digest: e.digest, decision: e.type === "approval_granted" ? ("granted" as const) : ("denied" as const), approvedBy: approval(e.by, e) }]
        : [],
    ),
    writesAutoApproved: firstOf(events, "writes_auto_approved", (e) => approval(e.by, e)),
    approvedCommands: approvedCommands(events, secrets),
    testRuns: events.flatMap((e) =>
      e.type === "test_run" && e.treeHash === input.tree
        ? [
            {
              command: redact(e.command, secrets),
              tree: e.treeHash,
              passed: e.exitCode === 0 && !e.timedOut,
              exitCode: e.exitCode,
              failing: e.failing?.length ?? null,
              seq: e.seq,
            },
          ]
        : [],
    ),
    finish: s.finishedTree === null ? null : { tree: s.finishedTree, preExistingFailures: s.preExistingFailures },
    policy: {
      digest: policyDigest(s.repoConfig),
      decisions: events.flatMap((e) => (e.type === "policy_decided" ? [{ seq: e.seq, tool: e.tool, decision: e.decision, rule: e.rule }] : [])),
    },
    model: { name: s.model, promptTokens: s.usage.promptTokens, completionTokens: s.usage.completionTokens, calls: s.usage.calls, costUsd: s.usage.costUsd },
    patchgateVersion: input.version,
    ledgerHead: input.ledgerHead,
    previousReceipt: input.previousReceipt,
    testIntegrity: integrityOf(events, input.tree),
    // Absent when nothing was granted, so receipts of sessions without grants keep their shape.
    ...grantsOf(events),
    ...budgetRaisesOf(events),
  };
  return receiptStatement(input.repository, input.commit, predicate);
}

/**
 * sha256 of the session's policy settings as recorded when it started (its `.github/patchgate.yml`'s
 * `policy`), keys sorted; `null` hashed when the session recorded none (the built-in rules applied).
 */
export function policyDigest(repoConfig: Record<string, unknown> | null): string {
  const policy = repoConfig?.policy ?? null;
  return `sha256:${createHash("sha256").update(canonicalJson(policy)).digest("hex")}`;
}

function planOf(s: SessionState, events: readonly StoredEvent[]): ReceiptPredicate["plan"] {
  const hash = s.approvedPlanHash ?? s.planHash;
  if (hash === null) return null;
  const approved = events.filter((e) => e.type === "plan_approved" && e.hash === hash).at(-1);
  return { hash, approvedBy: approved?.type === "plan_approved" ? approval(approved.by, approved) : null };
}

/** The ledger event that last wrote `path`: a file tool's write or an approved command's change. */
function lastWriteOf(events: readonly StoredEvent[], path: string): number | null {
  const e = events
    .filter(
      (x) =>
        ((x.type === "file_written" || x.type === "file_deleted") && x.path === path) ||
        (x.type === "file_moved" && (x.from === path || x.to === path)) ||
        (x.type === "command_changed" && x.paths.includes(path)),
    )
    .at(-1);
  return e?.seq ?? null;
}

/** The test-integrity verdict finish was accepted with on `tree`, without the diff lines (content). */
function integrityOf(events: readonly StoredEvent[], tree: string): ReceiptPredicate["testIntegrity"] {
  const e = events.filter((x) => x.type === "integrity_checked" && x.treeHash === tree).at(-1);
  if (e?.type !== "integrity_checked") return null;
  return {
    digest: e.digest,
    detectorsRun: e.report.detectorsRun,
    testFilesExamined: e.report.testFilesExamined,
    findings: e.report.findings.map((f) => ({ kind: f.kind, detector: f.detector, path: f.path, message: f.message })),
    approvedBy: e.approvedBy === undefined ? null : approval(e.approvedBy, e),
  };
}

function firstOf<T extends StoredEvent["type"], R>(events: readonly StoredEvent[], type: T, f: (e: Extract<StoredEvent, { type: T }>) => R): R | null {
  const e = events.find((x): x is Extract<StoredEvent, { type: T }> => x.type === type);
  return e === undefined ? null : f(e);
}

const FILE_TOOLS = new Set(["write_file", "edit_file"]);

/** The calls other than file writes in the batches a human granted, with what the policy judged (the command line). */
function approvedCommands(events: readonly StoredEvent[], secrets: readonly string[]): ReceiptPredicate["approvedCommands"] {
  const granted = new Set(events.flatMap((e) => (e.type === "approval_granted" ? [e.digest] : [])));
  const subjects = new Map(events.flatMap((e) => (e.type === "policy_decided" ? [[e.callId, e.subject] as const] : [])));
  return events.flatMap((e) =>
    e.type === "approval_requested" && granted.has(e.digest)
      ? e.calls
          .filter((c) => !FILE_TOOLS.has(c.tool))
          .map((c) => ({ digest: e.digest, tool: c.tool, command: redact(subjects.get(c.callId) ?? c.preview, secrets) }))
      : [],
  );
}

/** The grants approved in the session (its reason is the agent's words: left out, like content). */
function grantsOf(events: readonly StoredEvent[]): Pick<ReceiptPredicate, "grants"> {
  const grants = events.flatMap((e) => {
    if (e.type !== "grant_approved") return [];
    const asked = events.find((r) => r.type === "grant_requested" && r.digest === e.digest);
    if (asked?.type !== "grant_requested") return [];
    return [{ kind: asked.request.kind, target: asked.request.target, digest: e.digest, approvedBy: approval(e.by, e) }];
  });
  return grants.length === 0 ? {} : { grants };
}
