import type { Phase } from "../session/types.js";
import type { SessionSummary } from "./types.js";

/** A row of the `sessions` table, as both stores keep it. */
export interface SessionRow {
  id: string;
  key: string | null;
  phase: Phase;
  created_at: string;
  updated_at: string;
}

export function toSummary(r: SessionRow): SessionSummary {
  return { id: r.id, key: r.key, phase: r.phase, createdAt: r.created_at, updatedAt: r.updated_at };
}
