import type { PendingCall } from "../session/types.js";
import type { ToolDefinition } from "../tools/tool.js";
import { fail } from "../tools/tool.js";
import { executableConfigNotApproved } from "../policy/executable-approval.js";
import { withFileToolHint } from "../policy/shell/file-op-commands.js";
import { auditFor, execute, recordAnswer } from "./call-handler.js";
import type { CallEnv } from "./call-env.js";
import { startedWithoutResult } from "./interrupted-calls.js";
import { interruptedAnswer } from "./interrupted.js";

/**
 * Runs (approved) or answers (denied) every call of a decided batch that has no result yet, then closes
 * the batch. Calls settled before a crash are skipped, so a resume never runs a write twice; a call whose
 * start was recorded (write-ahead, MCP) but has no result is answered `interrupted`, never sent again.
 */
export async function settlePending(env: CallEnv): Promise<void> {
  const pending = env.ledger.state.pending;
  if (!pending || pending.status === "pending") return;
  const by = pending.decidedBy?.login ?? "unknown";
  for (const call of pending.calls) {
    if (env.ledger.state.pending?.settledCallIds.includes(call.callId)) continue;
    const tool = env.tools.find((t) => t.name === call.tool);
    const fact = { callId: call.callId, input: call.input, decision: "ask" as const, rule: call.rule, by };
    if (pending.status === "denied" || !tool) {
      // A tool can vanish between park and resume: a deploy that removed it, an MCP server gone.
      const result = tool
        ? fail("denied_by_human", deniedMessage(`A maintainer denied this request: ${pending.denyReason ?? "no reason given"}`, tool, call.input, env))
        : fail("unknown_tool", `The tool "${call.tool}" no longer exists; the approved call was not run.`);
      const audit = tool ? auditFor(tool, { ...fact, stage: "denied_by_human" }) : [];
      await recordAnswer(env, call.callId, call.tool, tool?.version ?? "unknown", call.input, result, audit);
      continue;
    }
    const cutOff = startedWithoutResult(env, call.callId) || env.ledger.state.openCalls.some((c) => c.id === call.callId && c.started);
    const stale = staleApproval(tool, call) ?? (cutOff ? interruptedAnswer(tool, call.input, env.context()) : null);
    if (stale) {
      const audit = stale.code === "interrupted" ? auditFor(tool, { ...fact, stage: "interrupted" }) : [];
      await recordAnswer(env, call.callId, tool.name, tool.version, call.input, { ok: false, error: stale }, audit);
      continue;
    }
    // Approving the batch approves its executable configuration only when the approval said so.
    if (call.executableConfig && pending.executableConfigApproved !== true) {
      await recordAnswer(env, call.callId, tool.name, tool.version, call.input, { ok: false, error: executableConfigNotApproved(call.executableConfig) });
      continue;
    }
    // The world may have moved since the batch was parked (an earlier call in it wrote the file): judge again.
    const refused = tool.precheck ? await tool.precheck(call.input, env.context()) : null;
    if (refused) {
      await recordAnswer(env, call.callId, tool.name, tool.version, call.input, { ok: false, error: refused });
      continue;
    }
    await execute(call.callId, tool, call.input, env, { ...fact, executableConfig: call.executableConfig !== undefined });
  }
  await env.ledger.append({ type: "approval_settled", digest: pending.digest });
}

/** The human approved a call to the tool as it was; a different version (an MCP server's new schema) is another tool. */
function staleApproval(tool: ToolDefinition, call: PendingCall) {
  if (call.toolVersion === undefined || call.toolVersion === tool.version) return null;
  return {
    code: "tool_changed",
    message: `${tool.name} changed since this call was approved (version ${call.toolVersion} → ${tool.version}); it was not run. Call it again if it is still needed.`,
  };
}

/** For a denied command that deletes or moves files, the file tool meant instead follows the message. */
function deniedMessage(message: string, tool: ToolDefinition, input: unknown, env: CallEnv): string {
  try {
    return withFileToolHint(message, tool.request(input, env.context()));
  } catch {
    // The denial stands without the hint.
    return message;
  }
}
