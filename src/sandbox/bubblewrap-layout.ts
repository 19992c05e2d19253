import { prlimitArgv, type BwrapHost } from "./bubblewrap-argv.js";
import { refusedEnvNotice } from "./env-policy.js";
import type { LongLivedCommand } from "./long-lived-sandbox.js";
import { hasRealGit, type BwrapHostSetup } from "./host-layout.js";
import { prepareRun, type PreparedRun } from "./prepare-run.js";
import { withSetupHome } from "./run-state.js";
import { sandboxHostsFile } from "./sandbox-hosts.js";
import { privateDeviceNodes } from "./device-nodes.js";
import { sessionMounts } from "./session-mounts.js";
import { nodeBinding, type Mount } from "./toolchain-binding.js";
import type { SandboxRunRequest } from "./types.js";

/**
 * The request checked and completed, with the session's toolchains and Patchgate's node first on
 * PATH, and a command's HOME made from setup's.
 */
export function prepareBubblewrapRun(host: BwrapHostSetup, req: SandboxRunRequest): Promise<PreparedRun> {
  return withSetupHome(prepareRun(req, [...(req.session?.pathDirs ?? []), ...nodeBinding(host.node).pathDirs]), req.session?.cacheDir);
}

/**
 * What a run mounts, found on the host at the time of the run (credential files in the toolchains,
 * whether the workspace has a real .git): the one-shot and the long-lived form alike.
 */
export async function bubblewrapLayout(host: BwrapHostSetup, req: SandboxRunRequest, run: PreparedRun, extra: Mount[] = []): Promise<BwrapHost> {
  return {
    mounts: [...nodeBinding(host.node).mounts, ...(await sessionMounts(req.session, run.access)), ...extra],
    hasGit: await hasRealGit(run.workspace),
    hostsFile: await sandboxHostsFile(),
    prlimit: host.prlimit,
    deviceNodes: await privateDeviceNodes(),
  };
}

/** What the supervisor is asked to run for `run`: prlimit with its limits, then the command. */
export function longLivedCommand(host: BwrapHostSetup, run: PreparedRun, req: SandboxRunRequest): LongLivedCommand {
  return {
    cwd: run.cwd,
    env: run.env,
    argv: [...prlimitArgv(host.prlimit, run.limits), ...run.argv],
    timeoutMs: run.timeoutMs,
    maxOutputBytes: run.limits.maxOutputBytes,
    signal: req.signal,
    onOutput: req.onOutput,
    stderrPrefix: refusedEnvNotice(run.refusedEnv),
    disk: { runBytes: run.limits.diskBytes, leftBytes: Math.min(run.limits.diskBytes, req.diskLeftBytes ?? Infinity) },
    ...(req.discardIgnored && !req.setup ? { discardIgnored: req.discardIgnored } : {}),
  };
}
