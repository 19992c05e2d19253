import { realpathSync, statSync } from "node:fs";
import { RepoConfigSchema } from "../../config/repo-config.js";
import { fold } from "../../session/reducer.js";
import type { ToolContext } from "../../tools/tool.js";
import type { Workspace } from "../../workspace/types.js";

/**
 * What the built-in read tools need to run outside a session: a workspace that is only a root. Every
 * operation that could change or publish something is absent (it throws), so the server built on this
 * can read and search, and nothing else.
 */
export function projectContext(repo: string): ToolContext {
  let root: string;
  try {
    root = realpathSync(repo);
  } catch {
    throw new Error(`--repo ${repo} does not exist`);
  }
  if (!statSync(root).isDirectory()) throw new Error(`--repo ${repo} is not a directory`);
  const readOnly = (what: string) => () => Promise.reject(new Error(`${what} is not available: this MCP server only reads`));
  const workspace: Workspace = {
    root,
    baseCommit: "",
    publishedTree: readOnly("publishedTree"),
    diff: readOnly("diff"),
    treeHash: readOnly("treeHash"),
    changedPaths: readOnly("changedPaths"),
    changedSince: readOnly("changedSince"),
    rollBack: readOnly("rollBack"),
    commit: readOnly("commit"),
    ignoredAmong: readOnly("ignoredAmong"),
    removeSpecialFiles: readOnly("removeSpecialFiles"),
    restore: readOnly("restore"),
    withSignal: () => workspace,
    treeOf: readOnly("treeOf"),
  };
  return { workspace, state: fold([]), sandbox: null, repoConfig: RepoConfigSchema.parse({}) };
}
