import type { SessionStore } from "../store/types.js";
import { issueKey, type Delivery, type Repo } from "./intent.js";

/**
 * A session is keyed by its issue (`owner/repo#n`, the store's one key per session). Its PR and check
 * run lead back to that issue through effect records under a pseudo-session, because a store key is
 * one per session and both a PR comment and a check-run button must find the same session.
 */
const INDEX = "@github-index";

export class SessionIndex {
  constructor(private readonly store: SessionStore) {}

  async linkPull(r: Repo, pull: number, issue: number): Promise<void> {
    await this.store.putEffect(INDEX, `pull:${r.owner}/${r.repo}!${pull}`, String(issue));
  }

  async linkCheckRun(r: Repo, checkRunId: number, issue: number): Promise<void> {
    await this.store.putEffect(INDEX, `check:${r.owner}/${r.repo}:${checkRunId}`, String(issue));
  }

  /** The issue number whose session owns this PR, or null for a PR Patchgate did not open. */
  async issueOfPull(r: Repo, pull: number): Promise<number | null> {
    const v = await this.store.getEffect(INDEX, `pull:${r.owner}/${r.repo}!${pull}`);
    return v === null ? null : Number(v);
  }

  async issueOfCheckRun(r: Repo, checkRunId: number): Promise<number | null> {
    const v = await this.store.getEffect(INDEX, `check:${r.owner}/${r.repo}:${checkRunId}`);
    return v === null ? null : Number(v);
  }

  /** The issue a delivery is about (a PR maps to its issue); null when it leads nowhere. */
  async issueOf(d: Delivery): Promise<number | null> {
    const i = d.intent;
    if (i.kind === "button") return this.issueOfCheckRun(d.repo, i.checkRunId);
    if (!i.thread.isPullRequest) return i.thread.number;
    return this.issueOfPull(d.repo, i.thread.number);
  }

  sessionOfIssue(r: Repo, issue: number): Promise<string | null> {
    return this.store.findByKey(issueKey(r, issue));
  }
}
