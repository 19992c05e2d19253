import type { DependencyCacheHandle } from "../depcache/index.js";
import type { Sandbox, SandboxLimits } from "../sandbox/types.js";
import type { SessionState } from "../session/state.js";
import type { Workspace } from "../workspace/types.js";
import type { OnRun } from "./run-progress.js";

/**
 * What a sandboxed run needs, and nothing of the tool call or the loop that asked for it: the tools,
 * the loop's baseline and setup steps build one from what they hold, so runs know nothing above them.
 */
export interface RunContext {
  sandbox: Sandbox;
  /** The tree the run works in: mounted into the sandbox, snapshotted and put back around the run. */
  workspace: Pick<Workspace, "root" | "treeHash" | "changedSince" | "rollBack" | "removeSpecialFiles" | "ignoredAmong">;
  /** The session's publishable paths: snapshotted and put back around a run even where git ignores them. */
  publishable: readonly string[];
  /** The repository's per-run limits (sandbox.* of its config). */
  limits: SandboxLimits;
  /** Hosts a networked run may reach besides the package registries (sandbox.allow_hosts). */
  allowHosts: readonly string[];
  signal?: AbortSignal;
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
  /** Told when a run starts and ends: progress only. */
  onRun?: OnRun;
}

/** The repository's setup step as its config states it. */
interface SetupConfig {
  /** The setup line (e.g. `npm ci`); undefined when the repository has none. */
  command: string | undefined;
  /** sandbox.network_for_setup: whether the repository lets setup reach the package registries. */
  network: boolean;
  timeoutSeconds: number;
}

/** A run of the setup step: it is memoised in the ledger, may use the network and the dependency cache. */
export interface SetupContext extends RunContext {
  setupConfig: SetupConfig;
  workspace: RunContext["workspace"] & Pick<Workspace, "baseCommit">;
  /** The session facts setup decides on: its last setup, whether the tree changed, whose retry to name. */
  state: Pick<SessionState, "setup" | "latestDiff" | "sessionId" | "task" | "toolchains">;
  /** Installed dependencies across sessions (depcache/); absent = not used. */
  dependencyCache?: DependencyCacheHandle;
}
