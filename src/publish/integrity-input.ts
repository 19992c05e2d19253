import { DEFAULT_TEST_GLOBS, type IntegrityFile, type IntegrityInput, type IntegrityTestRun } from "../policy/test-integrity/index.js";
import type { RepoConfig } from "../config/repo-config.js";
import type { SessionState } from "../session/state.js";
import type { TestRun } from "../session/types.js";
import type { Workspace } from "../workspace/types.js";
import { blobsAt } from "../workspace/blobs-at.js";
import { workingContent } from "./publication-check.js";

const DELETED = "000000";

/**
 * What the test-integrity detectors judge, read from the trees and the ledger: every path the tree to
 * publish changes, as it is on the base commit and as it will be published; the baseline run and the
 * passing run on that exact tree; the repository's `tests` block.
 */
export async function integrityInput(ws: Workspace, state: SessionState, tests: RepoConfig["tests"], treeHash: string): Promise<IntegrityInput> {
  const files: IntegrityFile[] = [];
  const changed = await ws.changedPaths(state.publishablePaths);
  // Every base version in one git process: a change of many files must not cost a process each.
  const before = await blobsAt(
    ws.root,
    ws.baseCommit,
    changed.map((c) => c.path),
  );
  for (const c of changed) {
    const after = c.mode === DELETED ? null : await workingContent(ws.root, c.path);
    files.push({ path: c.path, before: before.get(c.path) ?? null, after });
  }
  const final = state.testRuns.filter((r) => r.treeHash === treeHash).at(-1);
  return {
    files,
    testGlobs: tests?.paths ?? DEFAULT_TEST_GLOBS,
    goldenGlobs: tests?.golden ?? [],
    allow: tests?.allow ?? [],
    ...runOf("baseline", state.baseline),
    ...runOf("final", final ?? null),
  };
}

function runOf(key: "baseline" | "final", run: TestRun | null): { baseline?: IntegrityTestRun } | { final?: IntegrityTestRun } {
  if (run?.totals === undefined) return {};
  return { [key]: run.totals };
}
