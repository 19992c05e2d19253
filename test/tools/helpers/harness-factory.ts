import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cloneWorkspace } from "../../../src/workspace/clone.js";
import { makeRepo, type FixtureEntry } from "../../helpers/git-fixture.js";
import { ToolHarness, type HarnessOptions } from "./tool-harness.js";

/**
 * Call at describe level: returns a function that, per test, commits `files` to a temp repository,
 * clones it with the real workspace module (as a session does) and wraps the clone in a harness.
 * Both directories are removed after each test.
 */
export function harnessFactory(): (files: Record<string, FixtureEntry>, opts?: HarnessOptions) => Promise<ToolHarness> {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    while (cleanups.length > 0) cleanups.pop()!();
  });
  return async (files, opts) => {
    const repo = makeRepo(files, "pg-tools-");
    cleanups.push(repo.cleanup);
    const parent = mkdtempSync(join(tmpdir(), "pg-tools-ws-"));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const workspace = await cloneWorkspace({ source: repo.dir, dir: join(parent, "ws") });
    return new ToolHarness(workspace, opts);
  };
}
