import type { SealedReasoning, ToolCall } from "../../session/messages.js";
import type { SessionEvent, SessionSettings, StoredEvent } from "../../session/events.js";
import type { TokenUsage } from "../../session/types.js";
import { FatalError } from "../../errors/index.js";
import { firstNotFollowed } from "./event-origin.js";

/** One model call of the recorded session, as the model answered it. */
export type RecordedTurn =
  | {
      kind: "answer";
      model: string;
      usage: TokenUsage;
      content: string | null;
      toolCalls: ToolCall[];
      reasoning?: SealedReasoning;
      finishReason?: string | null;
    }
  | { kind: "empty"; model: string; usage: TokenUsage }
  | { kind: "error"; message: string; retries: number };

/** A call of compaction's summariser; `summary` null when the compaction failed on its answer. */
export interface RecordedSummary {
  model: string;
  usage: TokenUsage;
  summary: unknown;
}

/** A decision a human (or a flag standing for one) recorded; the replay gives it back at the same park. */
export type HumanDecision = Extract<
  StoredEvent,
  {
    type:
      | "plan_approved"
      | "plan_revision_requested"
      | "approval_granted"
      | "approval_denied"
      | "writes_auto_approved"
      | "question_answered"
      | "integrity_approved"
      | "integrity_denied";
  }
>;

const HUMAN_TYPES: ReadonlySet<string> = new Set([
  "plan_approved",
  "plan_revision_requested",
  "approval_granted",
  "approval_denied",
  "writes_auto_approved",
  "question_answered",
  "integrity_approved",
  "integrity_denied",
]);

/** What the session was started with, before its first resume: given again, as it was, to the replay. */
type Preliminary = Extract<SessionEvent, { type: "writes_auto_approved" | "limits_configured" }>;

export interface Recording {
  sessionId: string;
  task: Extract<SessionEvent, { type: "session_created" }>["task"];
  model: string;
  settings: SessionSettings;
  repoConfig?: Record<string, unknown>;
  baseCommit: string;
  preliminaries: Preliminary[];
  turns: RecordedTurn[];
  /** Compaction's summariser calls, in order: what they cost, and the summary when one was made. */
  summaries: RecordedSummary[];
  decisions: HumanDecision[];
}

/** A session's events cannot be replayed (no session_created, no workspace): one line says why. */
export class UnreplayableSessionError extends FatalError {
  readonly kind = "unreplayable_session";
}

/**
 * Reads what a replay needs from a session's events: how it started, every model answer in order
 * (a failed call is replayed as the same failure), and every human decision in order. A session that
 * took an input the replay cannot give back (event-origin.ts) is refused here, by name.
 */
export function readRecording(events: readonly StoredEvent[]): Recording {
  const created = events.find((e) => e.type === "session_created");
  if (created?.type !== "session_created") throw new UnreplayableSessionError("the session has no session_created event");
  const prepared = events.find((e) => e.type === "workspace_prepared");
  if (prepared?.type !== "workspace_prepared") throw new UnreplayableSessionError(`session ${created.sessionId} never prepared a workspace: nothing to replay`);
  const outside = firstNotFollowed(events);
  if (outside !== undefined) {
    throw new UnreplayableSessionError(
      `session ${created.sessionId} holds ${outside.type} (event ${outside.seq}), an input from outside the session that a replay cannot give back`,
    );
  }
  const firstResume = events.findIndex((e) => e.type === "resumed");
  const before = firstResume < 0 ? events : events.slice(0, firstResume);
  const preliminaries = before.flatMap((e): Preliminary[] =>
    e.type === "writes_auto_approved"
      ? [{ type: e.type, by: e.by }]
      : e.type === "limits_configured"
        ? [{ type: e.type, limits: e.limits, source: e.source }]
        : [],
  );
  const after = firstResume < 0 ? [] : events.slice(firstResume);
  return {
    sessionId: created.sessionId,
    task: created.task,
    model: created.model,
    settings: created.settings,
    ...(created.repoConfig && { repoConfig: created.repoConfig }),
    baseCommit: prepared.baseCommit,
    preliminaries,
    ...recordedModelCalls(events),
    decisions: after.filter((e): e is HumanDecision => HUMAN_TYPES.has(e.type)),
  };
}

/**
 * A successful agent call is stored as `llm_called` with its `assistant_message` right after it; a
 * successful call followed by anything else was compaction's summariser. A failed call is either an
 * empty answer (asked again once) or the provider's error after its retries.
 */
export function recordedModelCalls(events: readonly SessionEvent[]): { turns: RecordedTurn[]; summaries: RecordedSummary[] } {
  const turns: RecordedTurn[] = [];
  const summaries: RecordedSummary[] = [];
  events.forEach((e, i) => {
    if (e.type !== "llm_called") return;
    const next = events[i + 1];
    if (e.ok && next?.type === "assistant_message") {
      turns.push({
        kind: "answer",
        model: e.model,
        usage: e.usage,
        content: next.content,
        toolCalls: next.toolCalls,
        ...(next.reasoning !== undefined && { reasoning: next.reasoning }),
        ...(e.finishReason !== undefined && { finishReason: e.finishReason }),
      });
    } else if (e.ok) {
      summaries.push({ model: e.model, usage: e.usage, summary: next?.type === "context_compacted" ? next.summary : null });
    } else if (e.error === EMPTY_RESPONSE) {
      turns.push({ kind: "empty", model: e.model, usage: e.usage });
    } else {
      turns.push({ kind: "error", message: e.error ?? "model call failed", retries: e.retries });
    }
  });
  return { turns, summaries };
}

/** The error text the loop records for an answer with neither text nor a call (agent/llm-step.ts). */
const EMPTY_RESPONSE = "empty response";

/** The tree the session published, else the one its finish was accepted on, else null. */
export function recordedTree(events: readonly SessionEvent[]): string | null {
  let tree: string | null = null;
  for (const e of events) {
    if (e.type === "finish_accepted") tree = e.treeHash;
    if (e.type === "published" && e.tree !== undefined) tree = e.tree;
  }
  return tree;
}
