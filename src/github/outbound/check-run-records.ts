import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect, type CheckRunRecord } from "../../store/effects.js";
import type { SessionStore } from "../../store/types.js";

/**
 * What the store remembers of a session's check runs, so a resume or a redelivery adopts instead of
 * creating twice. GitHub ties a check run to one commit, so there is one run per head sha Patchgate
 * put the session on: `check_run:<sha>` holds that run (and, once it has been closed in favour of a
 * newer head, which sha it moved to), `check_run:shas` lists the shas in creation order, and
 * `check_run:head` names the sha whose run is current (the one updated and completed).
 */
export class CheckRunRecords {
  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
  ) {}

  async get(sha: string): Promise<CheckRunRecord | null> {
    return readEffect(this.store, effect.checkRun(this.sessionId, sha));
  }

  /**
   * Written before a run is created on `sha`: if the record of the run is missing later, whether
   * GitHub created it before the process died is asked of GitHub, and only then. The sha joins the
   * list first, so a run created and never recorded is still among the session's runs to close.
   */
  async intend(sha: string): Promise<void> {
    await this.list(sha);
    await writeEffect(this.store, effect.checkRunCreating(this.sessionId, sha), true);
  }

  async intended(sha: string): Promise<boolean> {
    return (await readEffect(this.store, effect.checkRunCreating(this.sessionId, sha))) !== null;
  }

  /** Records a run right after GitHub created it (or was found to have), before anything else can fail. */
  async add(r: CheckRunRecord): Promise<void> {
    await this.list(r.sha);
    await writeEffect(this.store, effect.checkRun(this.sessionId, r.sha), r);
  }

  async markMoved(r: CheckRunRecord, to: string): Promise<void> {
    await writeEffect(this.store, effect.checkRun(this.sessionId, r.sha), { ...r, movedTo: to });
  }

  /**
   * Every run not yet closed in favour of a newer head, except the one on `sha`; `unrecorded` lists
   * the shas where a run was intended and its record is missing (GitHub alone knows whether it exists).
   */
  async openExcept(sha: string): Promise<{ open: CheckRunRecord[]; unrecorded: string[] }> {
    const others = (await this.shas()).filter((s) => s !== sha);
    const records = await Promise.all(others.map((s) => this.get(s)));
    return {
      open: records.filter((r): r is CheckRunRecord => r !== null && r.movedTo === undefined),
      unrecorded: others.filter((_, i) => records[i] === null),
    };
  }

  async current(): Promise<CheckRunRecord | null> {
    const sha = await readEffect(this.store, effect.checkRunHead(this.sessionId));
    return sha === null ? null : this.get(sha);
  }

  async setCurrent(sha: string): Promise<void> {
    await writeEffect(this.store, effect.checkRunHead(this.sessionId), sha);
  }

  /** How many annotation batches the run on `sha` already received: a resumed completion goes on from there. */
  async annotatedBatches(sha: string): Promise<number> {
    return (await readEffect(this.store, effect.checkRunAnnotated(this.sessionId, sha))) ?? 0;
  }

  async setAnnotatedBatches(sha: string, n: number): Promise<void> {
    await writeEffect(this.store, effect.checkRunAnnotated(this.sessionId, sha), n);
  }

  private async list(sha: string): Promise<void> {
    const shas = await this.shas();
    if (!shas.includes(sha)) await writeEffect(this.store, effect.checkRunShas(this.sessionId), [...shas, sha]);
  }

  private async shas(): Promise<string[]> {
    return (await readEffect(this.store, effect.checkRunShas(this.sessionId))) ?? [];
  }
}
