import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cloneWorkspace } from "../../../src/workspace/clone.js";
import { makeRepo, type FixtureEntry } from "../../helpers/git-fixture.js";
import { ToolHarness, type HarnessOptions } from "./tool-harness.js";

/** The files as one string: equal file sets give equal keys. */
function keyOf(files: Record<string, FixtureEntry>): string {
  return JSON.stringify(Object.entries(files).map(([rel, entry]) => [rel, Buffer.isBuffer(entry) ? { base64: entry.toString("base64") } : entry]));
}

/**
 * Call at describe level: returns a function that, per test, clones a repository with `files`
 * committed, with the real workspace module (as a session does), and wraps the clone in a harness.
 * The clone is removed after each test. The repository it is cloned from is built once per set of
 * files in the describe block (three git processes each time otherwise) and removed after it: no
 * tool writes to it, so every test still starts from a clone of the same clean commit.
 */
export function harnessFactory(): (files: Record<string, FixtureEntry>, opts?: HarnessOptions) => Promise<ToolHarness> {
  const cleanups: (() => void)[] = [];
  const sources = new Map<string, { dir: string; cleanup: () => void }>();
  afterEach(() => {
    while (cleanups.length > 0) cleanups.pop()!();
  });
  afterAll(() => {
    for (const repo of sources.values()) repo.cleanup();
    sources.clear();
  });
  return async (files, opts) => {
    const key = keyOf(files);
    let repo = sources.get(key);
    if (!repo) {
      repo = makeRepo(files, "pg-tools-");
      sources.set(key, repo);
    }
    const parent = mkdtempSync(join(tmpdir(), "pg-tools-ws-"));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const workspace = await cloneWorkspace({ source: repo.dir, dir: join(parent, "ws") });
    return new ToolHarness(workspace, opts);
  };
}
