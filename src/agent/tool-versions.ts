import type { SessionEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import type { ToolDefinition } from "../tools/tool.js";

/**
 * The tool contract of a resume (tools/CHANGELOG.md): the version of every tool it offers, recorded
 * when it differs from the last record. `changed` lists the tools the session used to know under another
 * version, or that are gone: a resume or replay that runs different tools than the steps before it says
 * so in the ledger (and so in the timeline and the check run). A tool that is only new is no change.
 */
export function toolVersionsEvent(state: SessionState, tools: readonly ToolDefinition[]): SessionEvent | null {
  const versions = Object.fromEntries(tools.map((t) => [t.name, t.version]));
  const before = state.toolVersions;
  const names = Object.keys(versions);
  const same = names.length === Object.keys(before).length && names.every((n) => before[n] === versions[n]);
  if (same) return null;
  const changed = Object.entries(before)
    .filter(([name, from]) => versions[name] !== from)
    .map(([tool, from]) => ({ tool, from, to: versions[tool] ?? null }));
  return { type: "tool_versions", versions, changed };
}
