import { IllegalTransitionError } from "./errors.js";
import type { SessionEvent } from "./events.js";
import type { SessionState } from "./state.js";
import type { Approver } from "./types.js";

/** The channels where a human says yes to executable configuration in words of their own: never a label, a flag or an automation. */
const EXPLICIT_APPROVALS: readonly Approver["via"][] = ["comment", "cli"];

/**
 * An executable-config write is recorded only while a batch approved for executable configuration runs;
 * any other write of the path (or a command's change) ends what was approved for it.
 */
export function executableWritesAfter(s: SessionState, e: Extract<SessionEvent, { type: "file_written" }>): Record<string, string> {
  return executableRecordsAfter(s, e.type, { [e.path]: e.hash }, e.executableConfig === true);
}

/**
 * The same for any file tool's change: `recorded` maps each path it changed to what the ledger now holds
 * there (a content hash, or DELETED_CONTENT). Flagged, every one of them is recorded as approved.
 */
export function executableRecordsAfter(
  s: SessionState,
  type: SessionEvent["type"],
  recorded: Record<string, string>,
  flagged: boolean,
): Record<string, string> {
  const rest = { ...s.executableConfigWrites };
  for (const p of Object.keys(recorded)) delete rest[p];
  if (!flagged) return rest;
  if (s.pending?.status !== "approved" || s.pending.executableConfigApproved !== true) {
    throw new IllegalTransitionError(type, s.phase, `${Object.keys(recorded).join(", ")} is executable configuration and no batch approved for it is running`);
  }
  return { ...rest, ...recorded };
}

/** Whether a decision approves the batch's executable configuration; only an explicit human channel may. */
export function executableConfigApproval(s: SessionState, e: Extract<SessionEvent, { type: "approval_granted" | "approval_denied" }>): boolean {
  if (e.type !== "approval_granted" || e.executableConfig !== true) return false;
  if (!EXPLICIT_APPROVALS.includes(e.by.via)) {
    throw new IllegalTransitionError(e.type, s.phase, `executable configuration needs a human's explicit approval, not one by ${e.by.via}`);
  }
  return true;
}

/** What a command's change to `paths` ends: the hashes written there, and any executable-config approval of them. */
export function forgetWrites(s: SessionState, paths: readonly string[]): Pick<SessionState, "writtenHashes" | "executableConfigWrites"> {
  const writtenHashes = { ...s.writtenHashes };
  const executableConfigWrites = { ...s.executableConfigWrites };
  for (const p of paths) {
    delete writtenHashes[p];
    delete executableConfigWrites[p];
  }
  return { writtenHashes, executableConfigWrites };
}
