import type { SessionEvent } from "../session/events.js";
import type { SandboxResult } from "../sandbox/types.js";
import type { ToolContext } from "./tool.js";

/**
 * A sandboxed run that cannot change the tree unless a human approved it. The tree is snapshotted
 * before; afterwards a human-approved command keeps its changes (returned, so they are recorded),
 * while for anything else every change to a file that is not ignored is put back and reported.
 * Ignored outputs (build directories, caches) stay for the next run.
 */
export interface GuardedRun<R extends SandboxResult = SandboxResult> {
  res: R;
  /** Paths a human-approved command changed, kept. */
  kept: string[];
  /** Paths changed without approval, put back as they were. */
  discarded: string[];
}

/** `before`: the tree hash just taken, when the caller has one (it must be of the tree as it is now). */
export async function guardedRun<R extends SandboxResult>(ctx: ToolContext, opts: { keep: boolean; before?: string }, run: () => Promise<R>): Promise<GuardedRun<R>> {
  const { keep } = opts;
  const before = opts.before ?? (await ctx.workspace.treeHash());
  let res: R;
  try {
    res = await run();
  } catch (err) {
    // An aborted or failed run may still have written: put it back before giving up.
    if (!keep) await ctx.workspace.rollBack(before).catch(() => undefined);
    throw err;
  }
  if (keep) return { res, kept: await ctx.workspace.changedSince(before), discarded: [] };
  return { res, kept: [], discarded: await ctx.workspace.rollBack(before) };
}

/** For the model: what was put back and how to make such a change so that it counts. */
export function discardedNote(what: string, paths: string[]): { discarded?: string[]; note?: string } {
  if (paths.length === 0) return {};
  const shown = paths.slice(0, 20).join(", ") + (paths.length > 20 ? ` and ${paths.length - 20} more` : "");
  return {
    discarded: paths,
    note: `${what} changed ${shown}; ${paths.length === 1 ? "this change was" : "these changes were"} discarded (the files are as they were before it ran). Make changes with write_file or edit_file.`,
  };
}

export function rollbackEvent(tool: string, paths: string[]): SessionEvent[] {
  return paths.length === 0 ? [] : [{ type: "changes_rolled_back", tool, paths }];
}
