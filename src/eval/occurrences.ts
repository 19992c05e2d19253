import type { SessionEvent } from "../session/events.js";
import { TOOL_ERROR_CLASS, type FailureClass } from "./classes.js";

/** One moment in a session's events that counts toward a failure class. */
export interface Occurrence {
  cls: FailureClass;
  /** Index of the event in the session (its seq). */
  seq: number;
  tool: string | null;
  /** The path or command the call was about, when the input names one. */
  subject: string | null;
  /** Whether the session got past it later (see `markRecovered`). */
  recovered: boolean;
}

/** write_file and edit_file can stand in for each other: a failed edit fixed by a full write is a recovery. */
function family(tool: string): string {
  return tool === "write_file" || tool === "edit_file" ? "write" : tool;
}

function subjectOf(input: unknown): string | null {
  if (input === null || typeof input !== "object") return null;
  const { path, argv } = input as { path?: unknown; argv?: unknown };
  if (typeof path === "string") return path;
  if (Array.isArray(argv)) return JSON.stringify(argv);
  return null;
}

/** Every tool error with a known code, every failing test run and every MCP server failure, in event order. */
export function findOccurrences(events: readonly SessionEvent[]): Occurrence[] {
  const found: Occurrence[] = [];
  events.forEach((e, seq) => {
    if (e.type === "tool_result" && !e.result.ok) {
      const cls = TOOL_ERROR_CLASS[e.result.error.code];
      if (cls) found.push({ cls, seq, tool: e.tool, subject: subjectOf(e.input), recovered: false });
    } else if (e.type === "test_run" && e.exitCode !== 0) {
      found.push({ cls: "tests_failed", seq, tool: "run_tests", subject: e.command, recovered: false });
    } else if (e.type === "mcp_server_failed") {
      // From the ledger, not from a call: a server can fail without the model ever calling it.
      found.push({ cls: "mcp_server_failed", seq, tool: null, subject: e.server, recovered: false });
    }
  });
  return markRecovered(found, events);
}

/**
 * An occurrence is recovered when a later event shows the agent got past it:
 * a failed test run by a later passing one; a refused call by a later successful call of the same
 * kind on the same path or command (on any, when the refused call named none: arguments that were not
 * even JSON say nothing about what they were for); anything by a later accepted finish (which itself needs passing
 * tests on the final tree, so the agent found another way).
 */
function markRecovered(found: Occurrence[], events: readonly SessionEvent[]): Occurrence[] {
  return found.map((o) => {
    const later = events.slice(o.seq + 1);
    const recovered = later.some((e) => {
      if (e.type === "finish_accepted") return true;
      if (o.cls === "tests_failed") return e.type === "test_run" && e.exitCode === 0;
      if (o.cls === "tests_not_run" || e.type !== "tool_result" || !e.result.ok) return false;
      if (o.tool === null || family(e.tool) !== family(o.tool)) return false;
      return o.subject === null ? o.cls === "invalid_tool_call" : subjectOf(e.input) === o.subject;
    });
    return { ...o, recovered };
  });
}
