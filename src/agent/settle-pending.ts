import { fail } from "../tools/tool.js";
import { execute, recordAnswer, type CallEnv } from "./call-handler.js";

/**
 * Runs (approved) or answers (denied) every call of a decided batch that has no result yet, then closes
 * the batch. Calls settled before a crash are skipped, so a resume never runs a write twice.
 */
export async function settlePending(env: CallEnv): Promise<void> {
  const pending = env.ledger.state.pending;
  if (!pending || pending.status === "pending") return;
  for (const call of pending.calls) {
    if (env.ledger.state.pending?.settledCallIds.includes(call.callId)) continue;
    const tool = env.tools.find((t) => t.name === call.tool);
    if (pending.status === "denied" || !tool) {
      // A tool can vanish between park and resume only across a deploy that removed it.
      const result = tool
        ? fail("denied_by_human", `A maintainer denied this request: ${pending.denyReason ?? "no reason given"}`)
        : fail("unknown_tool", `The tool "${call.tool}" no longer exists; the approved call was not run.`);
      await recordAnswer(env, call.callId, call.tool, tool?.version ?? "unknown", call.input, result);
      continue;
    }
    // The world may have moved since the batch was parked (an earlier call in it wrote the file): judge again.
    const refused = tool.precheck ? await tool.precheck(call.input, env.context()) : null;
    if (refused) {
      await recordAnswer(env, call.callId, tool.name, tool.version, call.input, { ok: false, error: refused });
      continue;
    }
    await execute(call.callId, tool, call.input, env);
  }
  await env.ledger.append({ type: "approval_settled", digest: pending.digest });
}
