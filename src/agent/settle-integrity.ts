import { integrityDenied } from "../policy/test-integrity-gate.js";
import { parseToolArguments } from "../tools/define-tool.js";
import { fail } from "../tools/tool.js";
import { execute, recordAnswer } from "./call-handler.js";
import type { CallEnv } from "./call-env.js";
import { lastTurn } from "./turn.js";

/**
 * Answers the finish call a decided `test_integrity` request held: a denial goes back to the model
 * naming each finding; an approval runs finish again, which accepts only the approved findings (the
 * tree is judged anew, so a change since the request asks again). Nothing to do once it has its answer.
 */
export async function settleIntegrity(env: CallEnv): Promise<void> {
  const s = env.ledger.state;
  const request = s.integrity;
  if (!request || request.status === "pending" || !s.openCalls.some((c) => c.id === request.callId)) return;
  const call = lastTurn(s.conversation).find((c) => c.id === request.callId);
  const tool = env.tools.find((t) => t.name === "finish");
  const parsed = call && tool ? parseToolArguments(tool, call.arguments) : null;
  if (!tool || !parsed?.ok) {
    await recordAnswer(
      env,
      request.callId,
      "finish",
      tool?.version ?? "unknown",
      call?.arguments ?? null,
      fail("unknown_tool", "finish could not be run again."),
    );
    return;
  }
  if (request.status === "denied") {
    await recordAnswer(env, request.callId, tool.name, tool.version, parsed.input, { ok: false, error: integrityDenied(request) });
    return;
  }
  await execute(request.callId, tool, parsed.input, env, { decision: "ask", rule: "test_integrity", by: request.decidedBy?.login ?? "unknown" });
}
