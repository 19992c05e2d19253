import type { StoredEvent } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";
import type { Approver, Decision, PendingCall, Plan, ToolResult } from "../../session/types.js";

/**
 * The ledger joined up for a reader: each tool call with its policy verdict, the batch a human
 * decided it in, its result and the facts it recorded; each plan revision with its fate; each step
 * (one model call and everything until the next) with its events. Pure: events in, view out.
 */
interface Verdict {
  granted: boolean;
  by: Approver;
  at: string;
  reason?: string;
}

export interface BatchView {
  digest: string;
  step: number;
  at: string;
  calls: PendingCall[];
  verdict: Verdict | null;
}

export interface CallView {
  callId: string;
  tool: string;
  /** Arguments as the model sent them (parsed when they are JSON). */
  args: unknown;
  step: number;
  policy: { decision: Decision; rule: string; subject: string } | null;
  batch: BatchView | null;
  result: { result: ToolResult; input: unknown; at: string; durationMs: number } | null;
  /** Events the call's execution recorded with its result (file_read, test_run, diff_updated…). */
  facts: StoredEvent[];
}

interface PlanRevision {
  hash: string;
  plan: Plan;
  step: number;
  at: string;
  verdict: { approved: boolean; by: Approver; at: string; feedback?: string } | null;
}

export interface StepView {
  /** 0 = before the first model call; n = the n-th model call and what followed it. */
  index: number;
  events: StoredEvent[];
  calls: CallView[];
}

/** A stretch of time the session waited for a human; `until` is null while it still waits. */
interface Wait {
  kind: "plan" | "writes";
  from: string;
  until: string | null;
}

export interface SessionView {
  sessionId: string;
  state: SessionState;
  events: readonly StoredEvent[];
  steps: StepView[];
  calls: CallView[];
  batches: BatchView[];
  plans: PlanRevision[];
  autoApproval: { by: Approver; at: string } | null;
  waits: Wait[];
  /** Seqs of the `diff_updated` events whose patch differs from the one before (a change, not a re-record). */
  diffChanges: Set<number>;
}

/** Events a tool records beside its result, in the same append (see agent/call-handler.ts). */
const FACT_TYPES: ReadonlySet<string> = new Set<string>([
  "file_read",
  "file_written",
  "file_deleted",
  "file_moved",
  "todos_updated",
  "plan_updated",
  "plan_submitted",
  "diff_updated",
  "test_run",
  "setup_run",
  "finish_accepted",
  "changes_rolled_back",
  "command_changed",
]);

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function buildView(state: SessionState, events: readonly StoredEvent[]): SessionView {
  const steps: StepView[] = [{ index: 0, events: [], calls: [] }];
  const byId = new Map<string, CallView>();
  const calls: CallView[] = [];
  const batches: BatchView[] = [];
  const plans: PlanRevision[] = [];
  const waits: Wait[] = [];
  let autoApproval: SessionView["autoApproval"] = null;
  const diffChanges = new Set<number>();
  let lastPatch = "";
  let facts: StoredEvent[] = [];
  const step = () => steps[steps.length - 1];
  const endWait = (at: string) => {
    const open = waits.at(-1);
    if (open && open.until === null) open.until = at;
  };

  for (const e of events) {
    if (e.type === "llm_called") steps.push({ index: steps.length, events: [], calls: [] });
    step().events.push(e);
    if (FACT_TYPES.has(e.type)) {
      facts.push(e);
    } else if (e.type !== "tool_result") {
      facts = []; // facts belong to a result only when they were appended together with it
    }
    switch (e.type) {
      case "assistant_message":
        for (const c of e.toolCalls) {
          const view: CallView = {
            callId: c.id,
            tool: c.name,
            args: parseArgs(c.arguments),
            step: step().index,
            policy: null,
            batch: null,
            result: null,
            facts: [],
          };
          byId.set(c.id, view);
          calls.push(view);
          step().calls.push(view);
        }
        break;
      case "policy_decided": {
        const c = byId.get(e.callId);
        if (c) c.policy = { decision: e.decision, rule: e.rule, subject: e.subject };
        break;
      }
      case "tool_result": {
        const c = byId.get(e.callId);
        if (c) Object.assign(c, { result: { result: e.result, input: e.input, at: e.at, durationMs: e.durationMs }, facts });
        facts = [];
        break;
      }
      case "plan_submitted":
        plans.push({ hash: e.hash, plan: e.plan, step: step().index, at: e.at, verdict: null });
        waits.push({ kind: "plan", from: e.at, until: null });
        break;
      case "plan_approved":
      case "plan_revision_requested": {
        const last = plans.at(-1);
        if (last && last.verdict === null) {
          last.verdict = e.type === "plan_approved" ? { approved: true, by: e.by, at: e.at } : { approved: false, by: e.by, at: e.at, feedback: e.feedback };
        }
        endWait(e.at);
        break;
      }
      case "approval_requested": {
        const batch: BatchView = { digest: e.digest, step: step().index, at: e.at, calls: e.calls, verdict: null };
        batches.push(batch);
        for (const pc of e.calls) {
          const c = byId.get(pc.callId);
          if (c) c.batch = batch;
        }
        waits.push({ kind: "writes", from: e.at, until: null });
        break;
      }
      case "approval_granted":
      case "approval_denied": {
        const batch = batches.find((b) => b.digest === e.digest && b.verdict === null);
        if (batch) batch.verdict = { granted: e.type === "approval_granted", by: e.by, at: e.at, reason: e.type === "approval_denied" ? e.reason : undefined };
        endWait(e.at);
        break;
      }
      case "diff_updated":
        if (e.diff.patch !== lastPatch) diffChanges.add(e.seq);
        lastPatch = e.diff.patch;
        break;
      case "writes_auto_approved":
        autoApproval ??= { by: e.by, at: e.at };
        break;
      case "session_failed":
      case "session_cancelled":
        endWait(e.at);
        break;
    }
  }
  return { sessionId: state.sessionId, state, events, steps, calls, batches, plans, autoApproval, waits, diffChanges };
}
