import type { Repo } from "./intent.js";
import { MalformedWebhookError } from "./malformed-webhook.js";

/**
 * A pull request's branch moved, or the PR was opened: its `patchgate/receipt` status is judged again
 * (../session-work/receipt-status.ts). Whoever pushed — a human, another bot, the app itself — the
 * status is recomputed from what GitHub holds; nothing is obeyed, so the sender's permission is not
 * asked. Pure parsing, like ./triggers.ts.
 */
export interface PullPush {
  kind: "pull_pushed";
  id: string;
  repo: Repo;
  pull: number;
  /** The head the event names; the job judges the head GitHub has when it runs. */
  head: string;
  headRef: string;
}

export const PULL_PUSH_EVENTS = ["pull_request.synchronize", "pull_request.opened", "pull_request.reopened"] as const;

/** `name` is `event.action`; null for other events and for a PR from a fork (its branch is not in this repository). */
export function pullPushOf(id: string, name: string, payload: unknown): PullPush | null {
  if (!(PULL_PUSH_EVENTS as readonly string[]).includes(name)) return null;
  try {
    return parse(id, payload as any);
  } catch (e) {
    if (e instanceof TypeError) throw new MalformedWebhookError(id, name, e.message);
    throw e;
  }
}

// Read field by field: a missing one is a TypeError, reported as a malformed delivery.
function parse(id: string, p: any): PullPush | null {
  const r = p.repository;
  const pr = p.pull_request;
  if (pr.head.repo && pr.head.repo.id !== r.id) return null;
  const repo: Repo = {
    id: num(r.id),
    owner: String(r.owner.login),
    repo: String(r.name),
    defaultBranch: String(r.default_branch),
    installationId: num(p.installation.id),
  };
  return { kind: "pull_pushed", id, repo, pull: num(pr.number), head: String(pr.head.sha), headRef: String(pr.head.ref) };
}

function num(v: unknown): number {
  if (typeof v !== "number") throw new TypeError(`expected a numeric id, got ${JSON.stringify(v)}`);
  return v;
}
