import type { TaskInput } from "../../session/types.js";
import { Ledger } from "../../store/ledger.js";
import type { SessionStore } from "../../store/types.js";
import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect, type RepoLocation } from "../../store/effects.js";
import { sameTenant, type Tenant } from "../../session/tenant.js";
import { issueKey, olderIssueKeys, type Delivery, type Repo } from "../inbound/intent.js";

const tenantOfRepo = (r: Repo): Tenant => ({ installationId: r.installationId, repoId: r.id });

/**
 * A session is keyed by its issue (`inst:<id>/repo:<id>#n`, the store's one key per session). Its PR and check
 * run lead back to that issue through effect records under a pseudo-session, because a store key is
 * one per session and both a PR comment and a check-run button must find the same session. All of
 * it is by repository id, which a rename or a transfer keeps; where the repository is *now* (the
 * name GitHub answers to) is one more record, written when GitHub says it moved.
 */

export class SessionIndex {
  constructor(private readonly store: SessionStore) {}

  async linkPull(r: Repo, pull: number, issue: number): Promise<void> {
    await writeEffect(this.store, effect.issueOfPull(tenantOfRepo(r), pull), issue);
  }

  async linkCheckRun(r: Repo, checkRunId: number, issue: number): Promise<void> {
    await writeEffect(this.store, effect.issueOfCheckRun(tenantOfRepo(r), checkRunId), issue);
  }

  /**
   * The issue number whose session owns this PR, or null for a PR Patchgate did not open. A link an
   * older store wrote by repository id alone still leads to an issue number, whose session
   * sessionOfIssue hands over only to its own tenant.
   */
  async issueOfPull(r: Repo, pull: number): Promise<number | null> {
    return (await readEffect(this.store, effect.issueOfPull(tenantOfRepo(r), pull))) ?? readEffect(this.store, effect.olderIssueOfPull(r.id, pull));
  }

  async issueOfCheckRun(r: Repo, checkRunId: number): Promise<number | null> {
    return (
      (await readEffect(this.store, effect.issueOfCheckRun(tenantOfRepo(r), checkRunId))) ??
      readEffect(this.store, effect.olderIssueOfCheckRun(r.id, checkRunId))
    );
  }

  /** The issue a delivery is about (a PR maps to its issue); null when it leads nowhere. */
  async issueOf(d: Delivery): Promise<number | null> {
    const i = d.intent;
    if (i.kind === "button") return this.issueOfCheckRun(d.repo, i.checkRunId);
    if (!i.thread.isPullRequest) return i.thread.number;
    return this.issueOfPull(d.repo, i.thread.number);
  }

  /**
   * The session of issue `issue` of `r`. One an older store keyed without both ids (by repository id
   * alone, or by name) is found under that key too, and re-keyed — only when its own record names this
   * installation and this repository: a name or an id can have passed to another tenant since.
   */
  async sessionOfIssue(r: Repo, issue: number): Promise<string | null> {
    const id = await this.store.findByKey(issueKey(r, issue));
    if (id !== null) return id;
    for (const key of olderIssueKeys(r, issue)) {
      const older = await this.store.findByKey(key);
      if (older === null || !(await this.ownedBy(older, r))) continue;
      await this.store.setKey(older, issueKey(r, issue));
      return older;
    }
    return null;
  }

  private async ownedBy(sessionId: string, r: Repo): Promise<boolean> {
    return sameTenant((await Ledger.open(this.store, sessionId)).state.task.source, tenantOfRepo(r));
  }

  /**
   * GitHub says repository `r.id` is now `r.owner/r.repo` (renamed or transferred from `from`).
   * Returns how many sessions still keyed by the old name were re-keyed by id.
   */
  async moved(r: Repo, from: string): Promise<number> {
    const where: RepoLocation = { owner: r.owner, repo: r.repo, installationId: r.installationId };
    await writeEffect(this.store, effect.repoLocation(r.id), where);
    let adopted = 0;
    for (const s of await this.store.list()) {
      const issue = s.key?.startsWith(`${from}#`) ? Number(s.key.slice(from.length + 1)) : NaN;
      if (!Number.isInteger(issue)) continue;
      // `from` is the payload's word: only a session recorded for this installation and this repository is taken.
      if (!(await this.ownedBy(s.id, r))) continue;
      await this.store.setKey(s.id, issueKey(r, issue));
      adopted += 1;
    }
    return adopted;
  }

  /**
   * Where a session's repository is now: as recorded at its last move, else where the session began.
   * A move into another installation is not followed: the session stays its installation's.
   */
  async whereIs(src: TaskInput["source"]): Promise<RepoLocation> {
    const moved = src.repoId === undefined ? null : await readEffect(this.store, effect.repoLocation(src.repoId));
    if (moved !== null && moved.installationId === src.installationId) return moved;
    const [owner, repo] = src.repo.split("/");
    return { owner, repo, installationId: src.installationId ?? 0 };
  }
}
