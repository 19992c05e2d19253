import { z } from "zod";
import type { ToolError } from "../session/types.js";
import { judgeTestGate, type GateRule } from "../policy/test-gate.js";
import type { ChangedPath } from "../workspace/types.js";
import { publicationRefusal } from "../publish/publication-check.js";
import { integrityInput } from "../publish/integrity-input.js";
import { findTestWeakening } from "../policy/test-integrity/index.js";
import { judgeIntegrity } from "../policy/test-integrity-gate.js";
import { defineTool } from "./define-tool.js";
import { ok, type ToolContext } from "./tool.js";

const DESCRIPTION = `Finish the task: your changes are committed and proposed to the maintainers.
- Accepted only if run_tests passed on exactly the files that will be published (their tree hash). Any change after the last passing run requires another run_tests first.
- Where the repository's gate is no_new_failures, a run whose failing tests all failed on the base tree too (the baseline) is enough; they are listed as pre-existing.
- What is published is the base commit plus exactly the files you wrote with write_file / edit_file (and that approved commands changed); the result lists them (published_paths).
- If the change weakens the tests (a test skipped, deleted or emptied, assertions removed, snapshots or test configuration changed, fewer tests run), finish waits for a maintainer's own approval of exactly that; a denial comes back naming each finding: restore the tests and fix the code.
- summary is shown to the maintainers: say what changed and how it was tested.`;

const input = z.strictObject({
  summary: z.string().trim().min(1).describe("What was changed and how it was verified, for the pull request."),
});

interface Gate {
  treeHash: string;
  changes: ChangedPath[];
  error: ToolError | null;
  preExisting: string[];
}

function gateRule(ctx: ToolContext): GateRule {
  return ctx.repoConfig.gate === "no_new_failures" ? { gate: "no_new_failures", baseline: ctx.state.baseline } : { gate: "all_pass" };
}

/** The published tree (base + the ledger's publishable paths), and whether finish may accept it. */
async function gate(ctx: ToolContext): Promise<Gate> {
  const paths = ctx.state.publishablePaths;
  const treeHash = await ctx.workspace.publishedTree(paths);
  const changes = await ctx.workspace.changedPaths(paths);
  const tests = judgeTestGate(ctx.state.testRuns, treeHash, gateRule(ctx));
  const error =
    (await publicationRefusal(ctx.workspace, ctx.state, ctx.repoConfig.policy.protected_paths, ctx.repoConfig.policy.executable_config)) ?? tests.error;
  return { treeHash, changes, error, preExisting: tests.preExisting };
}

// Judging the gate again changes nothing (idempotent); only the accepting events make it take effect.
export const finishTool = defineTool({
  name: "finish",
  version: "3",
  description: DESCRIPTION,
  input,
  effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
  modes: ["execute"],
  async precheck(_args, ctx) {
    return (await gate(ctx)).error;
  },
  request() {
    return { kind: "meta" };
  },
  async execute(args, ctx) {
    const { treeHash, changes, error, preExisting } = await gate(ctx);
    if (error) return { result: { ok: false, error } };
    // The tests pass on this tree; whether they still test what they tested is judged on the same tree.
    const report = findTestWeakening(await integrityInput(ctx.workspace, ctx.state, ctx.repoConfig.tests, treeHash));
    const integrity = judgeIntegrity(report, ctx.state.integrity, { unattended: ctx.state.settings.unattended === true });
    if (integrity.kind === "refused") return { result: { ok: false, error: integrity.error } };
    if (integrity.kind === "ask") return { result: ok({ accepted: false, waiting_for: "test_integrity" }), hold: { digest: integrity.digest, report } };
    const diff = await ctx.workspace.diff(ctx.state.publishablePaths);
    const paths = changes.map((c) => c.path);
    const known = preExisting.length > 0 ? { pre_existing_failures: preExisting } : {};
    const data = {
      accepted: true,
      tree_hash: treeHash,
      published_paths: paths,
      files_changed: diff.filesChanged,
      insertions: diff.insertions,
      deletions: diff.deletions,
      ...known,
    };
    return {
      result: ok(data),
      events: [
        { type: "diff_updated", diff },
        { type: "integrity_checked", treeHash, digest: integrity.digest, report },
        { type: "finish_accepted", summary: args.summary, treeHash, paths, ...(preExisting.length > 0 ? { preExisting } : {}) },
      ],
    };
  },
});
