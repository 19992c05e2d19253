import { TERMINAL_PHASES } from "../../session/types.js";
import type { StoredEvent } from "../../session/events.js";
import { clip } from "../../safety/markdown.js";
import { bullets, code, para, strong, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { approvedBy, byWhom, plural, shortHash, when } from "./words.js";

const MAX_TEXT = 200;
const OUTPUT_TOOLS = new Set(["run_command", "run_tests"]);

const WHAT = { host: "host", budget: "cost budget +$", time: "seconds per run: " } as const;

function requestItem(v: SessionView, e: Extract<StoredEvent, { type: "grant_requested" }>): Inline[] {
  const head: Inline[] = [
    `${WHAT[e.request.kind]}`,
    code(clip(e.request.target, MAX_TEXT)),
    " (request ",
    code(shortHash(e.digest)),
    `, step at ${when(e.at)})`,
  ];
  const decided = v.events.find((x) => (x.type === "grant_approved" || x.type === "grant_denied") && x.digest === e.digest);
  if (decided?.type === "grant_approved") return [...head, " — ", strong("granted for this session"), `, ${approvedBy(decided.by)} at ${when(decided.at)}`];
  if (decided?.type === "grant_denied") return [...head, " — ", strong("denied"), ` by ${byWhom(decided.by)}: “${clip(decided.reason, MAX_TEXT)}”`];
  return [...head, TERMINAL_PHASES.includes(v.state.phase) ? " — never decided: the session ended first" : " — waiting for a maintainer"];
}

/** Grants: what the agent asked for (request_grant) and what became of it. Each lasts for this session only. */
export function grantsGovernance(v: SessionView): Block[] {
  const asked = v.events.flatMap((e) => (e.type === "grant_requested" ? [e] : []));
  if (asked.length === 0) return [];
  return [para(strong("Grants")), bullets(asked.map((e) => requestItem(v, e)))];
}

/**
 * Which text in the session's context no person with write access wrote: the issue's own text, the
 * repository's files, command and test output, MCP results. While any of it is there, the
 * repository's `allow_hosts` reach the setup step only; a later run reaches only what a human granted.
 */
function untrustedSources(v: SessionView): string[] {
  const s = v.state;
  const files = new Set(v.events.flatMap((e) => (e.type === "file_read" ? [e.path] : [])));
  const outputs = v.events.filter((e) => e.type === "tool_result" && OUTPUT_TOOLS.has(e.tool)).length;
  const servers = new Set(v.events.flatMap((e) => (e.type === "mcp_call" && e.stage === "completed" ? [e.server] : [])));
  return [
    ...(s.task.source.kind === "github" ? ["the issue's title and body"] : []),
    ...(s.task.reviewComments?.length ? [plural(s.task.reviewComments.length, "review comment")] : []),
    ...(s.instructions?.path ? [`the repository's agent instructions (${s.instructions.path})`] : []),
    ...(files.size > 0 ? [`the contents of ${plural(files.size, "file")}`] : []),
    ...(s.setup ? ["the setup's output"] : []),
    ...(outputs > 0 ? [`the output of ${plural(outputs, "command or test run")}`] : []),
    ...(servers.size > 0 ? [`results of MCP server${servers.size === 1 ? "" : "s"} ${[...servers].join(", ")}`] : []),
  ];
}

export function untrustedGovernance(v: SessionView): Block[] {
  const sources = untrustedSources(v);
  if (sources.length === 0) return [];
  return [
    para(
      strong("Untrusted text read"),
      " — none of it written by a person with write access; it unlocks nothing: test runs and commands reach only hosts a human granted:",
    ),
    bullets(sources.map((x) => [x])),
  ];
}
