import { readFile } from "node:fs/promises";
import path from "node:path";
import { checkPublishable, checkPublishedPaths, checkWrittenContent } from "../policy/published-paths.js";
import { contentHash } from "../policy/edit-context.js";
import { checkExecutableConfig } from "../policy/executable-approval.js";
import { executableConfigPath } from "../policy/executable-config.js";
import { isManifest, judgeExecutableChange } from "../policy/install-hooks.js";
import { git } from "../workspace/git.js";
import { DELETED_CONTENT } from "../session/publishable.js";
import type { SessionState } from "../session/state.js";
import type { ExecutableConfigHit, ToolError } from "../session/types.js";
import { pathEntry, pathKind } from "../workspace/publish-index.js";
import type { ChangedPath, Workspace } from "../workspace/types.js";

/**
 * What every publication is judged on besides the tests: each publishable path is still a file, no
 * change touches a protected path (workflows, the Patchgate config, .git…) or adds a nested
 * repository, every file a tool wrote still holds what the ledger recorded, and executable
 * configuration holds what a human approved as such. finish adds the test
 * gate; the untested work of a blocked session (github/session-work/blocked-work.ts) is judged on exactly this.
 */
export async function publicationRefusal(
  ws: Workspace,
  state: SessionState,
  protectedPaths: string[],
  executableExtra: readonly string[] = [],
): Promise<ToolError | null> {
  const paths = state.publishablePaths;
  const written = state.writtenHashes;
  const changes = await ws.changedPaths(paths);
  return (
    checkPublishable(unpublishable(ws.root, paths)) ??
    checkPublishedPaths(changes, protectedPaths) ??
    checkWrittenContent(written, await currentHashes(ws.root, Object.keys(written))) ??
    checkExecutableConfig(await executableChanges(ws, changes, executableExtra), state.executableConfigWrites, written)
  );
}

/**
 * The changed paths that are executable configuration, judged on the tree itself (base content against
 * the working tree's), not on what the policy or the tools decided when they were written.
 */
async function executableChanges(ws: Workspace, changes: readonly ChangedPath[], extra: readonly string[]): Promise<ExecutableConfigHit[]> {
  const hits: ExecutableConfigHit[] = [];
  for (const c of changes) {
    const byPath = executableConfigPath(c.path, extra);
    if (byPath) hits.push(byPath);
    else if (isManifest(c.path)) {
      const hit = judgeExecutableChange(c.path, await baseContent(ws, c.path), await workingContent(ws.root, c.path), extra);
      if (hit) hits.push(hit);
    }
  }
  return hits;
}

async function baseContent(ws: Workspace, rel: string): Promise<string | null> {
  const r = await git(["cat-file", "blob", `${ws.baseCommit}:${rel}`], { cwd: ws.root });
  return r.exitCode === 0 ? r.stdout : null;
}

export async function workingContent(root: string, rel: string): Promise<string | null> {
  const entry = pathEntry(root, rel);
  return entry.kind === "file" && entry.st.isFile() ? readFile(path.join(root, rel), "utf8") : null;
}

/**
 * Each written path's content hash now, for checkWrittenContent: DELETED_CONTENT when nothing is there
 * (what a file tool's delete or move records), null when it is something other than a regular file.
 */
async function currentHashes(root: string, paths: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const p of paths) {
    const abs = path.join(root, p);
    const entry = pathEntry(root, p);
    if (entry.kind === "absent") out[p] = DELETED_CONTENT;
    else out[p] = entry.kind === "file" && entry.st.isFile() ? contentHash(await readFile(abs)) : null;
  }
  return out;
}

function unpublishable(root: string, paths: readonly string[]): string[] {
  const kinds = paths.map((p) => [p, pathKind(root, p)] as const);
  return kinds.filter(([, kind]) => kind === "other").map(([p]) => p);
}
