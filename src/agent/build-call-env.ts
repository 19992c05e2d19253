import type { Ledger } from "../store/ledger.js";
import { defaultRules } from "../policy/default-rules.js";
import { mcpRules } from "../policy/mcp-rules.js";
import { ALL_TOOLS } from "../tools/registry.js";
import type { ToolContext } from "../tools/tool.js";
import { mcpNonInteractive } from "../mcp/index.js";
import { sessionCacheDir } from "../sandbox/session-cache.js";
import { besideCommitsSettled, DependencyStore } from "../depcache/index.js";
import type { CallEnv } from "./call-env.js";
import type { ResumeOptions } from "./runtime-options.js";
import type { ResumeEnv } from "./resume-steps.js";
import { sessionExtras, withSession } from "./session-sandbox.js";

/** The call handler's env for this resume: the policy's rules, the tools, and the context each call runs in. */
export async function buildCallEnv(env: ResumeEnv): Promise<null> {
  const { ledger, opts } = env;
  const cacheDir = opts.cacheRoot ? await sessionCacheDir(opts.cacheRoot, ledger.sessionId) : undefined;
  const dependencies = opts.dependencyCache ? new DependencyStore(opts.dependencyCache.root, opts.dependencyCache.maxBytes) : null;
  env.call = callEnv(ledger, opts, cacheDir, dependencies);
  // An earlier resume's commit may still read this workspace's files through links: a sandbox whose
  // runs may write into a file in place starts after it, so that the entry holds what setup made.
  if (opts.sandbox?.writesByReplacing !== true) await besideCommitsSettled(opts.workspace.root);
  // An entry stored by this resume's setup is committed beside the session. A resume that ends the
  // session, or hands it to publication, ends after the commit; one that parks does not wait for it,
  // since the next resume may follow at once (writes approved in advance). The process waits for it
  // before it ends (besideCommitsSettled).
  if (dependencies)
    env.exits.push(async (ending) => {
      if (!("outcome" in ending && ending.outcome.kind === "parked")) await dependencies.settled();
      return ending;
    });
  return null;
}

function callEnv(ledger: Ledger, opts: ResumeOptions, cacheDir: string | undefined, dependencies: DependencyStore | null): CallEnv {
  const cfg = opts.repoConfig;
  const rules =
    opts.rules ??
    defaultRules({
      testCommand: ledger.state.settings.testCommand ?? cfg.test,
      setupCommand: cfg.setup,
      allowCommands: cfg.policy.allow_commands,
      denyCommands: cfg.policy.deny_commands,
      protectedPaths: cfg.policy.protected_paths,
    });
  const context = (): ToolContext => ({
    workspace: opts.workspace,
    state: ledger.state,
    // The toolchains are read from the ledger at each call: recorded once, the same on every resume.
    sandbox: opts.sandbox && withSession(opts.sandbox, sessionExtras(ledger.state.toolchains, cacheDir, opts.toolchainWalks)),
    repoConfig: cfg,
    signal: opts.signal,
    onOutput: opts.onOutput,
    onRun: opts.onRun,
    ...(dependencies ? { dependencyCache: { store: dependencies, sessionCache: cacheDir } } : {}),
  });
  const mcpServers = opts.mcp?.config.servers ?? [];
  return {
    ledger,
    tools: opts.tools ?? ALL_TOOLS,
    rules: [...rules, ...mcpRules(mcpServers)],
    context,
    mcpNonInteractive: mcpNonInteractive(opts.mcp),
    ...(opts.toolchainWalks ? { toolchainWalks: opts.toolchainWalks } : {}),
  };
}
