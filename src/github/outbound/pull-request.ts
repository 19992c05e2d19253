import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect, type PullRef } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import type { Outbound } from "./outbound.js";

/**
 * The session's pull request, adopted before it is ever created twice: first the stored effect,
 * then GitHub's own index (open or closed PR with this head branch), and only then a new draft.
 */

export async function ensurePullRequest(
  octokit: Octokit,
  outbound: Outbound,
  store: SessionStore,
  sessionId: string,
  repo: Repo,
  pr: { branch: string; title: string; body: string },
): Promise<PullRef & { created: boolean }> {
  const stored = await readEffect(store, effect.pullRequest(sessionId));
  if (stored) {
    const ref = stored;
    await outbound.updatePull(ref.number, { body: pr.body }, sessionId);
    return { ...ref, created: false };
  }
  const { data: found } = await octokit.rest.pulls.list({ owner: repo.owner, repo: repo.repo, head: `${repo.owner}:${pr.branch}`, state: "all" });
  const existing = found.find((p) => p.state === "open") ?? found[0];
  let ref: PullRef;
  if (existing) {
    ref = { number: existing.number, nodeId: existing.node_id, url: existing.html_url };
    await outbound.updatePull(ref.number, { body: pr.body, ...(existing.state === "closed" ? { state: "open" as const } : {}) }, sessionId);
  } else {
    const data = await outbound.createPull({ head: pr.branch, base: repo.defaultBranch, title: pr.title, body: pr.body, draft: true }, sessionId);
    ref = { number: data.number, nodeId: data.node_id, url: data.html_url };
  }
  await writeEffect(store, effect.pullRequest(sessionId), ref);
  return { ...ref, created: !existing };
}

export async function storedPullRequest(store: SessionStore, sessionId: string): Promise<PullRef | null> {
  return readEffect(store, effect.pullRequest(sessionId));
}

/** REST cannot take a PR out of draft; GitHub offers only this GraphQL mutation. */
export async function markReadyForReview(octokit: Octokit, nodeId: string): Promise<void> {
  await octokit.graphql(
    `mutation($pullRequestId: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $pullRequestId }) { pullRequest { number isDraft } } }`,
    { pullRequestId: nodeId },
  );
}
