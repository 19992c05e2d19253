import { openMcpForResume } from "../mcp/index.js";
import { startBaseline } from "./baseline.js";
import { callEnvOf, type ResumeEnv } from "./resume-steps.js";
import { cancelSession } from "./session-endings.js";
import { openSessionSandbox } from "./session-sandbox.js";

/*
 * The steps of a resume that open something. Each adds the exit that closes it, so what is opened
 * later is closed first, as nested `try … finally` blocks would (./resume-steps.ts runSteps).
 */

/**
 * Binds every git call and walk of the resume to its signal (`/agent stop`), not only the model and
 * the sandbox; whatever the abort cuts short ends the session as cancelled, not as an error.
 */
export async function cancelOnAbort(env: ResumeEnv): Promise<null> {
  const { signal } = env.opts;
  env.opts = { ...env.opts, workspace: env.opts.workspace.withSignal(signal) };
  env.exits.push(async (ending) => ("error" in ending && signal?.aborted ? { outcome: await cancelSession(env.ledger, signal) } : ending));
  return null;
}

/**
 * The session's sandbox (one kept for all its commands), closed when the resume ends — or as soon as
 * its signal aborts (a stop, a lease passed to another worker): a call that ignores the abort may keep
 * the resume from returning for ever, and its lane goes on without it (src/queue/abandon.ts), so the
 * sandbox must not wait for it. Nothing an aborted resume still does needs the kept sandbox: a later
 * run is one-shot and sees the same abort.
 */
export async function openSandbox(env: ResumeEnv): Promise<null> {
  const given = env.opts.sandbox;
  const sandbox = given && openSessionSandbox(given);
  const stopWatching = closeOnAbort(env.opts.signal, sandbox);
  env.opts = { ...env.opts, sandbox };
  env.exits.push(async (ending) => {
    stopWatching();
    await sandbox?.close();
    return ending;
  });
  return null;
}

/** The operator's MCP servers for this resume; their processes, like the sandbox, do not wait for a resume that may never return. */
export async function openMcp(env: ResumeEnv): Promise<null> {
  const mcp = await openMcpForResume(env.ledger, env.opts.mcp, env.opts.workspace.root);
  env.mcp = mcp;
  const stopWatching = closeOnAbort(env.opts.signal, mcp);
  env.exits.push(async (ending) => {
    stopWatching();
    await mcp?.close();
    return ending;
  });
  return null;
}

/**
 * The baseline test run beside the loop (./baseline.ts), waited for on every way out. A failure of
 * the run itself is the resume's to report, unless the resume already ends with an error of its own.
 */
export async function startBaselineBeside(env: ResumeEnv): Promise<null> {
  const call = callEnvOf(env);
  const baseline = startBaseline(call);
  env.baseline = baseline;
  call.untilBaseline = () => baseline.wait();
  env.exits.push(async (ending) => {
    if ("error" in ending) await baseline.settled();
    else await baseline.wait();
    return ending;
  });
  return null;
}

/**
 * Closes `it` as soon as `signal` aborts, not only when the resume returns; the returned function
 * stops watching. A failure to close is the resume's own exit to report, once it returns.
 */
function closeOnAbort(signal: AbortSignal | undefined, it: { close(): Promise<void> } | null | undefined): () => void {
  if (!signal || !it) return () => undefined;
  const close = (): void => void it.close().catch(() => undefined);
  signal.addEventListener("abort", close, { once: true });
  return () => signal.removeEventListener("abort", close);
}
