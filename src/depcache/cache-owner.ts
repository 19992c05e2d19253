import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { tenantKey, tenantOf } from "../session/tenant.js";
import type { TaskInput } from "../session/types.js";
import { isUrl } from "../workspace/remote-url.js";

/**
 * Whose dependency-cache entries a session may read and write, as the first part of every key, or
 * null for none at all. Setup may install private packages with one tenant's credentials, so an
 * entry is never found by another tenant, whatever its lockfile says:
 * - GitHub: the installation id and repository id (`github:i<installation>-r<repository>`); a
 *   session whose record lacks either gets no cache;
 * - a local repository (CLI): its real path and the identity of its `.git` directory (device,
 *   inode, birth time), so a repository deleted and made again at the same path is another owner;
 * - a URL given to the CLI: the URL (the CLI's entries are one local user's);
 * - an eval case: its id.
 */
export async function cacheOwner(source: TaskInput["source"]): Promise<string | null> {
  if (source.kind === "github") {
    const tenant = tenantOf(source);
    return tenant && `github:${tenantKey(tenant)}`;
  }
  if (source.kind === "eval") return `eval:${source.repo}`;
  if (isUrl(source.repo)) return `url:${source.repo}`;
  try {
    const root = await realpath(source.repo);
    const git = await stat(path.join(root, ".git"), { bigint: true });
    return `local:${root}@${git.dev}:${git.ino}:${git.birthtimeNs}`;
  } catch {
    return null;
  }
}
