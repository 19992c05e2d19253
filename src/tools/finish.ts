import { z } from "zod";
import type { TestRun, ToolError } from "../session/types.js";
import { checkPublishedPaths } from "./published-paths.js";
import { defineTool, ok, type ToolContext } from "./tool.js";

const DESCRIPTION = `Finish the task: your changes are committed and proposed to the maintainers.
- Accepted only if run_tests passed on exactly the current files (the current tree hash). Any change after the last passing run requires another run_tests first.
- summary is shown to the maintainers: say what changed and how it was tested.`;

const input = z.strictObject({
  summary: z.string().trim().min(1).describe("What was changed and how it was verified, for the pull request."),
});

function short(hash: string): string {
  return hash.slice(0, 12);
}

function describeRun(run: TestRun): string {
  const outcome = run.timedOut ? "timed out" : `exited with ${run.exitCode ?? "no code"}`;
  return `\`${run.command}\` ${outcome} on tree ${short(run.treeHash)}`;
}

/** Gate 6 (DESIGN §3): the tree that will be pushed must be the tree the tests passed on. */
export function checkTestGate(runs: readonly TestRun[], treeHash: string): ToolError | null {
  // The newest run on this exact tree decides: a failure after a pass (a flaky suite) is newer evidence.
  const latestHere = runs.filter((r) => r.treeHash === treeHash).at(-1);
  if (latestHere && latestHere.exitCode === 0 && !latestHere.timedOut) return null;
  const last = runs.at(-1);
  const lastText = last === undefined ? "No tests have been run in this session." : `The last run: ${describeRun(last)}.`;
  const hint = last !== undefined && last.treeHash !== treeHash ? " The files changed after it." : "";
  return {
    code: "tests_not_passed",
    message: `finish refused: there is no passing test run for the current tree ${short(treeHash)}. ${lastText}${hint} Call run_tests, fix any failure, and call finish again.`,
    details: { tree_hash: treeHash, last_run: last ?? null },
  };
}

async function gate(ctx: ToolContext): Promise<{ treeHash: string; error: ToolError | null }> {
  const treeHash = await ctx.workspace.treeHash();
  const denied = checkPublishedPaths(await ctx.workspace.changedPaths(), ctx.repoConfig.policy.protected_paths);
  return { treeHash, error: denied ?? checkTestGate(ctx.state.testRuns, treeHash) };
}

export const finishTool = defineTool({
  name: "finish",
  version: "1",
  description: DESCRIPTION,
  input,
  risk: "meta",
  mutatesWorkspace: false,
  idempotent: false,
  modes: ["execute"],
  async precheck(_args, ctx) {
    return (await gate(ctx)).error;
  },
  request() {
    return { kind: "meta", tool: "finish" };
  },
  async execute(args, ctx) {
    const { treeHash, error } = await gate(ctx);
    if (error) return { result: { ok: false, error } };
    const diff = await ctx.workspace.diff();
    const data = { accepted: true, tree_hash: treeHash, files_changed: diff.filesChanged, insertions: diff.insertions, deletions: diff.deletions };
    return {
      result: ok(data),
      events: [
        { type: "diff_updated", diff },
        { type: "finish_accepted", summary: args.summary, treeHash },
      ],
    };
  },
});
