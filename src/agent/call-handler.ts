import type { ToolCall } from "../session/messages.js";
import type { ExecutableConfigHit, PendingCall, ToolError, ToolResult } from "../session/types.js";
import type { SessionEvent } from "../session/events.js";
import type { ActionRequest } from "../policy/types.js";
import type { CallFact, CallGrant, ToolContext, ToolDefinition, ToolOutcome } from "../tools/tool.js";
import { evaluate } from "../policy/approval-policy.js";
import { askForExecutableConfig } from "../policy/executable-approval.js";
import { executableConfigPath } from "../policy/executable-config.js";
import { commandText } from "../policy/shell/command-verdict.js";
import { withFileToolHint } from "../policy/shell/file-op-commands.js";
import { applyStandingAnswers } from "../policy/standing-answers.js";
import { checkPlanGate } from "../policy/plan-gate.js";
import { parseToolArguments } from "../tools/define-tool.js";
import { fail } from "../tools/tool.js";
import { publishableAfter } from "../session/publishable.js";
import { rerunnable } from "./interrupted.js";
import { waitingRefusal } from "../policy/turn-rules.js";
import { runsBesideBaseline } from "./baseline.js";
import type { CallEnv } from "./call-env.js";

/**
 * Who decided a call that runs: the policy's rule, or a human's approval of a batch. `readOnly`: the
 * policy allowed it as a reader, so it runs with the workspace read-only; `executableConfig`: the human's
 * approval named the executable configuration it writes.
 */
export type Decided = Pick<CallFact, "decision" | "rule" | "by"> & { readOnly?: boolean; executableConfig?: boolean };

/** What became of one tool call: answered now, or waiting for a human. */
export type CallOutcome = { kind: "answered" } | { kind: "ask"; pending: PendingCall };

/**
 * The one place that acts on gate and policy decisions (STYLE §2): unknown tool / bad arguments →
 * plan gate → precheck (paths, edit context) → policy → execute or park. Every refusal is a tool result.
 * `waitingOn`: an earlier call of this turn is parked; an allowed call is then refused, not run first.
 */
export async function handleCall(call: ToolCall, env: CallEnv, waitingOn: string | null = null): Promise<CallOutcome> {
  const tool = env.tools.find((t) => t.name === call.name);
  if (!tool) {
    const names = env.tools.map((t) => t.name).join(", ");
    await answer(env, call, "unknown", call.arguments, fail("unknown_tool", `There is no tool "${call.name}". Tools: ${names}.`));
    return { kind: "answered" };
  }
  const parsed = parseToolArguments(tool, call.arguments);
  if (!parsed.ok) {
    await answer(env, call, tool.version, call.arguments, { ok: false, error: parsed.error });
    return { kind: "answered" };
  }
  const input = parsed.input;
  const state = env.ledger.state;
  const gate = checkPlanGate(tool, state.mode);
  if (gate) {
    await answer(env, call, tool.version, input, { ok: false, error: gate });
    return { kind: "answered" };
  }
  // Judged on the tree the baseline leaves, never on one it is still running tests in.
  if (!runsBesideBaseline(tool)) await env.untilBaseline?.();
  const ctx = env.context();
  const refused = tool.precheck ? await tool.precheck(input, ctx) : null;
  if (refused) {
    await answer(env, call, tool.version, input, { ok: false, error: refused });
    return { kind: "answered" };
  }
  const same = tool.unchanged ? await tool.unchanged(input, ctx) : null;
  if (same) {
    await answer(env, call, tool.version, input, same);
    return { kind: "answered" };
  }
  const request = tool.request(input, ctx);
  const judged = askForExecutableConfig(
    evaluate(request, env.rules, state.mode, { workspaceRoot: ctx.workspace.root }),
    await executableHit(tool, input, request, ctx),
  );
  // Nobody answers an MCP ask in a session without a human for it (CLI without a terminal, `mcp_non_interactive: policy`).
  const unattended = state.settings.unattended === true || (request.kind === "mcp" && env.mcpNonInteractive === true);
  const verdict = applyStandingAnswers(judged, request, { autoApproveWrites: state.autoApproveWrites, unattended });
  if (waitingOn !== null && verdict.decision === "allow") {
    await answer(env, call, tool.version, input, { ok: false, error: waitingRefusal(call, waitingOn) });
    return { kind: "answered" };
  }
  const subject =
    request.kind === "command"
      ? commandText(request.argv)
      : request.kind === "mcp"
        ? `${request.server}/${request.serverTool}`
        : request.kind === "write" && request.from !== undefined
          ? `${request.from} → ${request.path}`
          : "path" in request
            ? (request.path ?? "")
            : "";
  const reason = request.kind === "mcp" && verdict.reason ? { reason: verdict.reason } : {};
  // The decision is stored in the same commit as what follows it (one fsync fewer per call).
  const decided: SessionEvent = {
    type: "policy_decided",
    callId: call.id,
    tool: tool.name,
    decision: verdict.decision,
    rule: verdict.rule,
    subject,
    ...reason,
  };
  const fact = { callId: call.id, input, decision: verdict.decision, rule: verdict.rule, by: "policy" };
  if (verdict.decision === "deny") {
    const code = request.kind === "command" ? "command_denied" : request.kind === "mcp" ? "mcp_denied" : "path_denied";
    const why = verdict.reason ? ` (${verdict.reason})` : "";
    const audit = auditFor(tool, { ...fact, stage: "denied" });
    await recordAnswer(
      env,
      call.id,
      call.name,
      tool.version,
      input,
      fail(code, withFileToolHint(`Refused by policy rule ${verdict.rule}${why}: ${subject}`, request), verdict.parts),
      audit,
      [decided],
    );
    return { kind: "answered" };
  }
  if (verdict.decision === "ask") {
    const preview = tool.preview ? await tool.preview(input, ctx) : subject;
    await env.ledger.append(decided, ...auditFor(tool, { ...fact, stage: "awaiting_approval" }));
    const executable = verdict.executableConfig ? { executableConfig: verdict.executableConfig } : {};
    return { kind: "ask", pending: { callId: call.id, tool: tool.name, input, preview, rule: verdict.rule, toolVersion: tool.version, ...executable } };
  }
  await execute(call.id, tool, input, env, { ...fact, readOnly: verdict.readOnly === true }, [decided]);
  return { kind: "answered" };
}

/** Whether a write changes executable configuration: by the tool's own judgement of its content, else by the path. */
async function executableHit(tool: ToolDefinition, input: unknown, request: ActionRequest, ctx: ToolContext): Promise<ExecutableConfigHit | null> {
  if (request.kind !== "write") return null;
  if (tool.executableConfig) return tool.executableConfig(input, ctx);
  return executableConfigPath(request.path, ctx.repoConfig.policy.executable_config);
}

/** The audit events a tool records for one stage of a call (none for tools without an audit). */
export function auditFor(tool: ToolDefinition, fact: CallFact): SessionEvent[] {
  return tool.audit?.(fact) ?? [];
}

/**
 * Runs an allowed (or human-approved) call and records its facts and result. A tool with an audit
 * records its start first (write-ahead), so a resume after a crash mid-call knows it may have happened.
 * `decision`: the policy's record of this call, stored before the call runs, except for a pure read
 * with nothing to mark started: that one is stored with its result, since a read cut off by a crash
 * leaves nothing behind and runs again, through every gate, on resume.
 */
export async function execute(
  callId: string,
  tool: ToolDefinition,
  input: unknown,
  env: CallEnv,
  decided: Decided,
  decision: SessionEvent[] = [],
): Promise<void> {
  const { readOnly, executableConfig, ...who } = decided;
  // A human-approved write settled on resume comes here without handleCall.
  if (!runsBesideBaseline(tool)) await env.untilBaseline?.();
  const grant: CallGrant = who.by === "policy" ? { by: "policy", readOnly: readOnly === true } : { by: "human", executableConfig: executableConfig === true };
  const fact = { callId, input, ...who };
  // Write-ahead: a call that cannot simply run again is marked started, so a resume after a crash
  // inside it answers it `interrupted` instead of running it blindly (./interrupted.ts).
  const startedNow: SessionEvent[] = [
    ...(rerunnable(tool) ? [] : [{ type: "tool_started" as const, callId }]),
    ...auditFor(tool, { ...fact, stage: "started" }),
  ];
  const withResult = tool.risk === "read" && !tool.mutatesWorkspace && startedNow.length === 0;
  const before = withResult ? startedNow : [...decision, ...startedNow];
  if (before.length > 0) await env.ledger.append(...before);
  const ctx = { ...env.context(), grant };
  const started = Date.now();
  let outcome: ToolOutcome;
  try {
    outcome = await tool.execute(input, ctx);
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    outcome = { result: fail("tool_failed", `${tool.name} failed: ${(err as Error).message}`) };
  }
  if (outcome.hold) {
    await env.ledger.append({ type: "integrity_requested", callId, ...outcome.hold });
    return;
  }
  if (outcome.grant) {
    await env.ledger.append({ type: "grant_requested", callId, ...outcome.grant });
    return;
  }
  const facts = outcome.events ?? [];
  const diff = tool.mutatesWorkspace && outcome.result.ok ? await changedDiff(env, ctx, facts) : [];
  const durationMs = Date.now() - started;
  await env.ledger.append(
    ...(withResult ? decision : []),
    ...facts,
    ...diff,
    { type: "tool_result", callId, tool: tool.name, toolVersion: tool.version, input, result: outcome.result, durationMs },
    ...auditFor(tool, { ...fact, stage: "completed", durationMs, result: outcome.result }),
  );
}

/** A refusal decided outside the gates above (e.g. by the turn rules): a tool result like any other. */
export async function refuse(env: CallEnv, call: ToolCall, error: ToolError): Promise<void> {
  const version = env.tools.find((t) => t.name === call.name)?.version ?? "unknown";
  await answer(env, call, version, call.arguments, { ok: false, error });
}

/**
 * The diff of the published tree after a mutating call (with the paths this call's facts make
 * publishable), as an event only when it changed: a test run that wrote nothing must not store the
 * whole patch in the ledger once more.
 */
async function changedDiff(env: CallEnv, ctx: ToolContext, facts: SessionEvent[]): Promise<SessionEvent[]> {
  const diff = await ctx.workspace.diff(publishableAfter(env.ledger.state.publishablePaths, facts));
  return diff.patch === env.ledger.state.latestDiff?.patch ? [] : [{ type: "diff_updated", diff }];
}

/** Records a result that was decided without running the tool (a refusal), by call id, with its audit. */
export async function recordAnswer(
  env: CallEnv,
  callId: string,
  tool: string,
  version: string,
  input: unknown,
  result: ToolResult,
  audit: SessionEvent[] = [],
  before: SessionEvent[] = [],
): Promise<void> {
  await env.ledger.append(...before, { type: "tool_result", callId, tool, toolVersion: version, input, result, durationMs: 0 }, ...audit);
}

function answer(env: CallEnv, call: ToolCall, version: string, input: unknown, result: ToolResult): Promise<void> {
  return recordAnswer(env, call.id, call.name, version, input, result);
}
