import type { RunContext, SetupContext } from "../../runs/run-context.js";
import { limitsOf } from "../../runs/sandbox-run.js";
import type { ToolContext } from "../tool.js";

/**
 * The part of a tool call's context a sandboxed run takes. Callers refuse a run without a sandbox
 * before they get here (sandboxUnavailable), so its absence is a bug, not an answer.
 */
export function runContextOf(ctx: ToolContext): RunContext {
  if (ctx.sandbox === null) throw new Error("a sandboxed run without a sandbox");
  return {
    sandbox: ctx.sandbox,
    workspace: ctx.workspace,
    publishable: ctx.state.publishablePaths,
    limits: limitsOf(ctx.repoConfig),
    allowHosts: ctx.repoConfig.sandbox.allow_hosts,
    signal: ctx.signal,
    onOutput: ctx.onOutput,
    onRun: ctx.onRun,
  };
}

/** The same for the repository's setup step, with its configuration and the session facts it is memoised on. */
export function setupContextOf(ctx: ToolContext): SetupContext {
  const config = ctx.repoConfig;
  return {
    ...runContextOf(ctx),
    workspace: ctx.workspace,
    state: ctx.state,
    setupConfig: { command: config.setup, network: config.sandbox.network_for_setup, timeoutSeconds: config.timeouts.setup_seconds },
    dependencyCache: ctx.dependencyCache,
  };
}
