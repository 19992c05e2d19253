import { readFile } from "node:fs/promises";
import path from "node:path";
import { checkPublishable, checkPublishedPaths, checkWrittenContent } from "../../policy/published-paths.js";
import { contentHash } from "../../policy/edit-context.js";
import type { SessionState } from "../../session/state.js";
import type { ToolError } from "../../session/types.js";
import { pathEntry, pathKind } from "../../workspace/publish-index.js";
import type { Workspace } from "../../workspace/types.js";

/**
 * What every publication is judged on besides the tests: each publishable path is still a file, no
 * change touches a protected path (workflows, the Patchgate config, .git…) or adds a nested
 * repository, and every file a tool wrote still holds what the ledger recorded. finish adds the test
 * gate; the untested work of a blocked session (github/session-work/blocked-work.ts) is judged on exactly this.
 */
export async function publicationRefusal(ws: Workspace, state: SessionState, protectedPaths: string[]): Promise<ToolError | null> {
  const paths = state.publishablePaths;
  const written = state.writtenHashes;
  return (
    checkPublishable(unpublishable(ws.root, paths)) ??
    checkPublishedPaths(await ws.changedPaths(paths), protectedPaths) ??
    checkWrittenContent(written, await currentHashes(ws.root, Object.keys(written)))
  );
}

/** Each written path's content hash now (null when it is not a regular file), for checkWrittenContent. */
async function currentHashes(root: string, paths: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const p of paths) {
    const abs = path.join(root, p);
    const entry = pathEntry(root, p);
    out[p] = entry.kind === "file" && entry.st.isFile() ? contentHash(await readFile(abs)) : null;
  }
  return out;
}

function unpublishable(root: string, paths: readonly string[]): string[] {
  const kinds = paths.map((p) => [p, pathKind(root, p)] as const);
  return kinds.filter(([, kind]) => kind === "other").map(([p]) => p);
}
