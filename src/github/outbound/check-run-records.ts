import type { SessionStore } from "../../store/types.js";

/**
 * What the store remembers of a session's check runs, so a resume or a redelivery adopts instead of
 * creating twice. GitHub ties a check run to one commit, so there is one run per head sha Patchgate
 * put the session on: `check_run:<sha>` holds that run (and, once it has been closed in favour of a
 * newer head, which sha it moved to), `check_run:shas` lists the shas in creation order, and
 * `check_run:head` names the sha whose run is current (the one updated and completed).
 */
export interface CheckRunRecord {
  sha: string;
  id: number;
  url: string;
  /** Set when this run was completed `neutral` because the session moved on to `movedTo`. */
  movedTo?: string;
}

const perSha = (sha: string): string => `check_run:${sha}`;
const SHAS = "check_run:shas";
const HEAD = "check_run:head";

export class CheckRunRecords {
  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
  ) {}

  async get(sha: string): Promise<CheckRunRecord | null> {
    const v = await this.store.getEffect(this.sessionId, perSha(sha));
    return v === null ? null : (JSON.parse(v) as CheckRunRecord);
  }

  /**
   * Written before a run is created on `sha`: if the record of the run is missing later, whether
   * GitHub created it before the process died is asked of GitHub, and only then.
   */
  async intend(sha: string): Promise<void> {
    await this.store.putEffect(this.sessionId, `${perSha(sha)}:creating`, "1");
  }

  async intended(sha: string): Promise<boolean> {
    return (await this.store.getEffect(this.sessionId, `${perSha(sha)}:creating`)) !== null;
  }

  /** Records a run right after GitHub created it, before anything else can fail. */
  async add(r: CheckRunRecord): Promise<void> {
    await this.store.putEffect(this.sessionId, perSha(r.sha), JSON.stringify(r));
    const shas = await this.shas();
    if (!shas.includes(r.sha)) await this.store.putEffect(this.sessionId, SHAS, JSON.stringify([...shas, r.sha]));
  }

  async markMoved(r: CheckRunRecord, to: string): Promise<void> {
    await this.store.putEffect(this.sessionId, perSha(r.sha), JSON.stringify({ ...r, movedTo: to }));
  }

  /** Every run not yet closed in favour of a newer head, except the one on `sha`. */
  async openExcept(sha: string): Promise<CheckRunRecord[]> {
    const all = await Promise.all((await this.shas()).filter((s) => s !== sha).map((s) => this.get(s)));
    return all.filter((r): r is CheckRunRecord => r !== null && r.movedTo === undefined);
  }

  async current(): Promise<CheckRunRecord | null> {
    const sha = await this.store.getEffect(this.sessionId, HEAD);
    return sha === null ? null : this.get(sha);
  }

  async setCurrent(sha: string): Promise<void> {
    await this.store.putEffect(this.sessionId, HEAD, sha);
  }

  /** How many annotation batches the run on `sha` already received: a resumed completion goes on from there. */
  async annotatedBatches(sha: string): Promise<number> {
    return Number((await this.store.getEffect(this.sessionId, `${perSha(sha)}:annotated`)) ?? 0);
  }

  async setAnnotatedBatches(sha: string, n: number): Promise<void> {
    await this.store.putEffect(this.sessionId, `${perSha(sha)}:annotated`, String(n));
  }

  private async shas(): Promise<string[]> {
    return JSON.parse((await this.store.getEffect(this.sessionId, SHAS)) ?? "[]") as string[];
  }
}
