import { MalformedWebhookError } from "./malformed-webhook.js";
import type { Repo } from "./intent.js";

/**
 * What happens to the app's reach, as opposed to commands: an installation deleted, repositories
 * taken out of one, a repository renamed or transferred. Pure parsing of the payload; what it claims
 * is checked against GitHub before anything acts on it (./lifecycle.ts).
 */
export type Lifecycle =
  | { kind: "uninstalled"; installationId: number; account: string; by: string }
  | { kind: "repositories_removed"; installationId: number; repos: { id: number; fullName: string }[]; by: string }
  /** Renamed or transferred: `repo` is where it is now, `from` its `owner/name` before. */
  | { kind: "moved"; how: "renamed" | "transferred"; repo: Repo; from: string; by: string };

export const LIFECYCLE_EVENTS = ["installation.deleted", "installation_repositories.removed", "repository.renamed", "repository.transferred"] as const;

/** `name` is `event.action`; null for anything else. Throws MalformedWebhookError like ./triggers.ts. */
export function lifecycleOf(id: string, name: string, payload: unknown): Lifecycle | null {
  if (!(LIFECYCLE_EVENTS as readonly string[]).includes(name)) return null;
  try {
    return parse(name, payload as any);
  } catch (e) {
    if (e instanceof TypeError) throw new MalformedWebhookError(id, name, e.message);
    throw e;
  }
}

// Read field by field: a missing one is a TypeError, reported as a malformed delivery.
function parse(name: string, p: any): Lifecycle {
  const installationId = need(p.installation.id);
  const by = String(p.sender.login);
  if (name === "installation.deleted") return { kind: "uninstalled", installationId, account: String(p.installation.account.login), by };
  if (name === "installation_repositories.removed") {
    const repos = (p.repositories_removed as any[]).map((r) => ({ id: need(r.id), fullName: String(r.full_name) }));
    return { kind: "repositories_removed", installationId, repos, by };
  }
  const r = p.repository;
  const repo: Repo = { id: need(r.id), owner: String(r.owner.login), repo: String(r.name), defaultBranch: String(r.default_branch), installationId };
  if (name === "repository.renamed") return { kind: "moved", how: "renamed", repo, from: `${repo.owner}/${String(p.changes.repository.name.from)}`, by };
  const old = p.changes.owner.from;
  return { kind: "moved", how: "transferred", repo, from: `${String((old.user ?? old.organization).login)}/${repo.repo}`, by };
}

function need(v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`expected a numeric id, got ${JSON.stringify(v)}`);
  return v;
}
