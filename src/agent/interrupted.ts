import { commandText } from "../policy/shell/command-verdict.js";
import type { ToolError } from "../session/types.js";
import type { ToolContext, ToolDefinition } from "../tools/tool.js";
import type { CallEnv } from "./call-env.js";

/**
 * What a resume may do with a call the process was running when it died. Re-running is safe when the
 * tool says so and the call is not a write: a write is the model's decision about files it must look
 * at again, so it is answered instead (see interruptedAnswer).
 */
export function rerunnable(tool: ToolDefinition): boolean {
  return tool.idempotent && tool.risk !== "write";
}

/**
 * Before a resume answers or re-runs the calls a crash cut off: a call that changes the workspace
 * may have left it half-changed (a file half-written, a killed test run's temporary files), so the
 * publishable files are put back to what the ledger last recorded. What is pushed later is then
 * built from recorded writes only. Returns whether anything had to be put back.
 */
export async function restoreAfterInterruption(env: CallEnv): Promise<boolean> {
  const s = env.ledger.state;
  const undecided = new Set(s.pending?.status === "pending" ? s.pending.calls.map((c) => c.callId) : []);
  // A call that is not rerunnable records tool_started before it runs (write-ahead), so one without it
  // never ran: an approved write waiting to run has touched nothing. A rerunnable one records no start.
  const touching = s.openCalls.some((c) => {
    const tool = env.tools.find((t) => t.name === c.name);
    return !undecided.has(c.id) && tool?.mutatesWorkspace === true && (c.started || rerunnable(tool));
  });
  if (!touching) return false;
  const put = await env.context().workspace.restore(s.latestDiff?.patch ?? "", s.publishablePaths);
  return put.length > 0;
}

/** The answer to a call that had started when the process stopped: what is known, and what to do. */
export function interruptedAnswer(tool: ToolDefinition, input: unknown, ctx: ToolContext): ToolError {
  if (!tool.mutatesWorkspace) return interruptedError(tool.name);
  let subject = "";
  try {
    const r = tool.request(input, ctx);
    subject = r.kind === "write" ? ` on ${r.from === undefined ? r.path : `${r.from} → ${r.path}`}` : r.kind === "command" ? `: ${commandText(r.argv)}` : "";
  } catch {
    // The answer below is still true without the subject.
  }
  return {
    code: "interrupted",
    message: `The session stopped while ${tool.name} ran${subject}. The workspace was put back to its last recorded state, so the call changed no file. Read what you need and call it again if it is still needed.`,
  };
}

/** The answer to a call cut off mid-way that may already have reached another system: it is never sent again. */
export function interruptedError(tool: string): ToolError {
  return {
    code: "interrupted",
    message: `${tool} was running when Patchgate stopped; it may or may not have taken effect, and it is not sent again. Check its effect before calling it again.`,
  };
}
