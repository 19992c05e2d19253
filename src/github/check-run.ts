import type { Ledger } from "../store/ledger.js";
import type { SessionStore } from "../store/types.js";
import type { SessionState } from "../session/state.js";
import { renderCheckRun } from "../trace/check-run.js";
import type { Repo } from "./intent.js";
import type { Octokit } from "./octokit.js";
import { shortHash } from "./render.js";

/**
 * The one `Patchgate` check run of a session: created once (its id is an effect record, so a
 * resume adopts it), updated at milestones and at most every `throttleMs` in between, completed
 * with a conclusion when the session ends. Output is rendered from the ledger (byte-limited there).
 */
export const CHECK_RUN_EFFECT = "check_run";

export class CheckRunPublisher {
  /** A job starts with the check run freshly updated by the previous milestone; the window starts now. */
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly octokit: Octokit,
    private readonly repo: Repo,
    private readonly store: SessionStore,
    private readonly ledger: Ledger,
    private readonly opts: { secrets: string[]; throttleMs: number },
  ) {}

  async id(): Promise<number | null> {
    const v = await this.store.getEffect(this.ledger.sessionId, CHECK_RUN_EFFECT);
    return v === null ? null : Number(v);
  }

  /** Creates the check run unless this session already has one; returns its id. */
  async ensure(headSha: string): Promise<{ id: number; created: boolean }> {
    const known = await this.id();
    if (known !== null) return { id: known, created: false };
    const { data } = await this.octokit.rest.checks.create({
      owner: this.repo.owner,
      repo: this.repo.repo,
      name: "Patchgate",
      head_sha: headSha,
      status: "in_progress",
      output: this.output(),
    });
    await this.store.putEffect(this.ledger.sessionId, CHECK_RUN_EFFECT, String(data.id));
    return { id: data.id, created: true };
  }

  /** Ledger listener: an update when the throttle window has passed; milestones call `update` directly. */
  readonly onEvent = (): void => {
    if (Date.now() - this.last < this.opts.throttleMs) return;
    this.last = Date.now();
    this.chain = this.chain.then(() => this.patch({})).catch(() => {});
  };

  async update(): Promise<void> {
    this.last = Date.now();
    await (this.chain = this.chain.then(() => this.patch({ actions: this.actions(this.ledger.state) })));
  }

  async complete(): Promise<void> {
    const s = this.ledger.state;
    const conclusion = s.phase === "done" ? "success" : s.phase === "cancelled" ? "cancelled" : s.failure?.reason === "config_invalid" ? "neutral" : "failure";
    await (this.chain = this.chain.then(() => this.patch({ status: "completed", conclusion, actions: [] })));
  }

  private output(): { title: string; summary: string; text: string } {
    return renderCheckRun(this.ledger.state, this.ledger.history, { sessionId: this.ledger.sessionId, secrets: this.opts.secrets });
  }

  /** The Approve plan button, bound to the plan hash (an identifier is at most 20 characters). */
  private actions(s: SessionState): { label: string; description: string; identifier: string }[] {
    if (s.phase !== "awaiting_plan_approval" || !s.planHash) return [];
    return [{ label: "Approve plan", description: `Approve plan ${shortHash(s.planHash)}`, identifier: `approve:${shortHash(s.planHash)}` }];
  }

  private async patch(extra: { status?: "completed"; conclusion?: string; actions?: unknown[] }): Promise<void> {
    const id = await this.id();
    if (id === null) return;
    await this.octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", {
      owner: this.repo.owner,
      repo: this.repo.repo,
      check_run_id: id,
      output: this.output(),
      ...(extra as Record<string, unknown>),
    });
  }
}
