import type { SessionEvent } from "../session/events.js";
import type { SandboxResult } from "../sandbox/types.js";
import type { RunContext } from "./run-context.js";

/**
 * A sandboxed run that cannot change the tree unless a human approved it. The tree is snapshotted
 * before (every file that is not ignored, and the session's publishable paths even when ignored);
 * afterwards a human-approved command keeps its changes (returned, so they are recorded as
 * publishable), while for anything else every change is put back and reported. What anything else
 * wrote where git ignores (build directories, caches, installed packages) was already discarded by
 * the sandbox (SandboxRunRequest.discardIgnored, set by sandbox-run.ts); ignored outputs are never published.
 */
export interface GuardedRun<R extends SandboxResult = SandboxResult> {
  res: R;
  /** Paths a human-approved command changed, kept. */
  kept: string[];
  /** Paths changed without approval, put back as they were. */
  discarded: string[];
}

export async function guardedRun<R extends SandboxResult>(
  ctx: Pick<RunContext, "workspace" | "publishable">,
  keep: boolean,
  run: () => Promise<R>,
  /**
   * The sandbox getting ready for this run (readyShell, readyArgv), started by the caller: it runs
   * nothing, so the snapshot is taken meanwhile, and the run starts only once both are done.
   */
  ready: Promise<void> = Promise.resolve(),
): Promise<GuardedRun<R>> {
  const also = ctx.publishable;
  const [before] = await Promise.all([ctx.workspace.treeHash(also), ready]);
  let res: R;
  try {
    res = await run();
  } catch (err) {
    // An aborted or failed run may still have written: put it back before giving up.
    if (!keep) await ctx.workspace.rollBack(before, also).catch(() => undefined);
    throw err;
  }
  if (keep) return { res, kept: await ctx.workspace.changedSince(before, also), discarded: [] };
  return { res, kept: [], discarded: await ctx.workspace.rollBack(before, also) };
}

/** The ledger's record of a guarded run: what was put back, or what an approved command made publishable. */
export function guardedRunEvents(tool: string, run: GuardedRun): SessionEvent[] {
  const events: SessionEvent[] = [];
  if (run.discarded.length > 0) events.push({ type: "changes_rolled_back", tool, paths: run.discarded });
  if (run.kept.length > 0) events.push({ type: "command_changed", tool, paths: run.kept });
  return events;
}
