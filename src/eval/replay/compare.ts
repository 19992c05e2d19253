import type { SessionEvent, StoredEvent } from "../../session/events.js";

/** One event as the comparison sees it: its kind and the facts that must be the same in a replay. */
export interface Compared {
  seq: number;
  type: string;
  facts: string;
}

export interface Divergence {
  /** The recorded event's seq; the replayed one's when the recording ends first. */
  seq: number;
  /** `type: facts` of each side; null on the side that has no event there. */
  recorded: string | null;
  replayed: string | null;
  what: string;
}

type FactsOf = { [T in SessionEvent["type"]]?: (e: Extract<SessionEvent, { type: T }>) => string };

/**
 * What a replay must reproduce, named one by one: every decision of the policy and the gates, every
 * human decision and what it was bound to, what each call read and wrote (by content hash), every
 * test run's tree and exit code, how the session ended. Anything not listed is not compared:
 * timings, triggers, toolchain and setup records of this host, the baseline run (it runs beside the
 * loop, so its place among the events is not fixed), compaction (its thresholds are the operator's
 * runtime settings and it changes only the prompt), MCP audit stages, and the records of publication
 * (`published`, `branch_claimed`, `branch_push_intended`, `branch_pushed`, `branch_rebased`, a receipt):
 * those say where the result went, not what was decided. The published tree is compared on its own.
 */
const FACTS: FactsOf = {
  llm_called: (e) => (e.ok ? "" : `failed: ${e.error ?? ""}`),
  assistant_message: (e) => e.toolCalls.map((c) => `${c.name}#${c.id}`).join(" "),
  policy_decided: (e) => `${e.callId} ${e.tool} ${e.subject}: ${e.decision} by ${e.rule}`,
  tool_result: (e) => `${e.callId} ${e.tool}: ${e.result.ok ? "ok" : e.result.error.code}`,
  file_read: (e) => `${e.path} ${e.hash}`,
  file_written: (e) => `${e.path} ${e.hash}${e.executableConfig ? " (executable config)" : ""}`,
  file_deleted: (e) => `${e.path} ${e.hash}${e.executableConfig ? " (executable config)" : ""}`,
  file_moved: (e) => `${e.from} → ${e.to} ${e.hash}${e.executableConfig ? " (executable config)" : ""}`,
  plan_submitted: (e) => e.hash,
  plan_approved: (e) => e.hash,
  plan_revision_requested: () => "",
  question_asked: (e) => e.question,
  question_answered: (e) => String(e.index),
  approval_requested: (e) => e.digest,
  approval_granted: (e) => `${e.digest}${e.executableConfig ? " with executable config" : ""}`,
  approval_denied: (e) => e.digest,
  writes_auto_approved: () => "",
  approval_settled: (e) => e.digest,
  test_run: (e) => `${e.command} on ${e.treeHash}: exit ${e.exitCode}`,
  changes_rolled_back: (e) => `${e.tool}: ${e.paths.join(" ")}`,
  command_changed: (e) => `${e.tool}: ${e.paths.join(" ")}`,
  block_reported: (e) => e.reason,
  integrity_requested: (e) => `${e.callId} ${e.digest}`,
  integrity_approved: (e) => e.digest,
  integrity_denied: (e) => e.digest,
  integrity_checked: (e) => `${e.treeHash} ${e.digest}`,
  finish_accepted: (e) => `${e.treeHash} ${(e.paths ?? []).join(" ")}`,
  session_failed: (e) => e.reason,
  session_blocked: (e) => e.reason,
  session_cancelled: () => "",
};

/** The compared events of a session, in order; a successful model call adds nothing to its message. */
export function comparable(events: readonly StoredEvent[]): Compared[] {
  return events.flatMap((e) => {
    const facts = (FACTS[e.type] as ((e: SessionEvent) => string) | undefined)?.(e);
    if (facts === undefined || (e.type === "llm_called" && e.ok)) return [];
    return [{ seq: e.seq, type: e.type, facts }];
  });
}

/** The first compared event where the replay differs from the recording, or null when none does. */
export function firstDivergence(recorded: readonly StoredEvent[], replayed: readonly StoredEvent[]): Divergence | null {
  const a = comparable(recorded);
  const b = comparable(replayed);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const r = a.at(i);
    const p = b.at(i);
    if (r && p && r.type === p.type && r.facts === p.facts) continue;
    return {
      seq: r?.seq ?? p?.seq ?? 0,
      recorded: r ? show(r) : null,
      replayed: p ? show(p) : null,
      what: whatDiffers(r, p),
    };
  }
  return null;
}

/** The published trees compared once the events agree: a tree the events do not explain is a divergence too. */
export function treeDivergence(recorded: string | null, replayed: string | null, seq: number): Divergence | null {
  if (recorded === replayed) return null;
  return { seq, recorded: `tree ${recorded ?? "none"}`, replayed: `tree ${replayed ?? "none"}`, what: "the published tree differs" };
}

function show(c: Compared): string {
  return c.facts === "" ? c.type : `${c.type}: ${c.facts}`;
}

function whatDiffers(r: Compared | undefined, p: Compared | undefined): string {
  if (!r && p) return `the replay went on past the recording's end with ${p.type}`;
  if (r && !p) return `the replay stopped before the recorded ${r.type}`;
  if (r && p && r.type !== p.type) return `the recording has ${r.type} where the replay has ${p.type}`;
  return `${r?.type ?? ""} differs`;
}
