import type { TaskInput } from "./types.js";

/**
 * Whose data a record is: a GitHub App installation and a repository in it, both by GitHub's ids.
 * A name (`owner/repo`) or a URL is only where a repository answers now; it can be handed to another
 * repository of another installation, so no store row, cache entry, mirror or directory is found by it.
 */
export interface Tenant {
  installationId: number;
  repoId: number;
}

/** The tenant a session's task records, or null when its source does not hold both ids (CLI, eval, old stores). */
export function tenantOf(source: TaskInput["source"]): Tenant | null {
  const { installationId, repoId } = source;
  return source.kind === "github" && isId(installationId) && isId(repoId) ? { installationId, repoId } : null;
}

/**
 * Whether a record made for `recorded` may be handed to `asking`: both ids present and equal. A record
 * that lacks either id cannot prove whose it is, so it is never handed over.
 */
export function sameTenant(recorded: TaskInput["source"], asking: Tenant): boolean {
  const t = tenantOf(recorded);
  return t !== null && t.installationId === asking.installationId && t.repoId === asking.repoId;
}

/** The one spelling of a tenant inside keys and directory names: `i<installation>-r<repository>`. */
export function tenantKey(t: Tenant): string {
  if (!isId(t.installationId) || !isId(t.repoId)) throw new Error(`a tenant needs two positive integer ids, not ${JSON.stringify(t)}`);
  return `i${t.installationId}-r${t.repoId}`;
}

function isId(n: number | undefined): n is number {
  return Number.isSafeInteger(n) && (n as number) > 0;
}
