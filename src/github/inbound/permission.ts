import type { Octokit } from "../octokit.js";
import type { Repo, Sender } from "./intent.js";

/**
 * Who may start, approve, deny or stop: a human with write, maintain or admin on the repository,
 * asked of the permission API every time (never `author_association`, which says nothing about
 * access). Checked when a command is applied, not when it was typed, so a revoked collaborator
 * cannot approve through a queued delivery.
 */
const ALLOWED = new Set(["write", "maintain", "admin"]);

export interface PermissionVerdict {
  allowed: boolean;
  /** The precise role (`triage` is reported as `read` in the legacy `permission` field). */
  role: string;
}

export async function checkPermission(octokit: Octokit, repo: Repo, sender: Sender): Promise<PermissionVerdict> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner: repo.owner, repo: repo.repo, username: sender.login });
    const role = (data as { role_name?: string }).role_name ?? data.permission;
    return { allowed: ALLOWED.has(role) || ALLOWED.has(data.permission), role };
  } catch (e) {
    // 404: not a collaborator and not visible — the same as no access, never an approval.
    if ((e as { status?: number }).status === 404) return { allowed: false, role: "none" };
    throw e;
  }
}

export function refusalText(login: string, role: string, what: string): string {
  return (
    `Sorry @${login}, Patchgate only takes ${what} from people with write access to this repository ` + `(your role here is \`${role}\`). Nothing was changed.`
  );
}
