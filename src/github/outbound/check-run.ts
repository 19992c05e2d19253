import { grantButton } from "./grant-button.js";
import type { Ledger } from "../../store/ledger.js";
import type { SessionStore } from "../../store/types.js";
import type { SessionState } from "../../session/state.js";
import { checkRunAnnotations, renderCheckRun } from "../../trace/check-run.js";
import type { Annotation } from "../../trace/report/provenance.js";
import type { CheckRunRecord } from "../../store/effects.js";
import { CheckRunRecords } from "./check-run-records.js";
import type { CheckRunAction, Outbound } from "./outbound.js";
import { storedPullRequest } from "./pull-request.js";
import { shortHash } from "./render.js";
import { integrityButton } from "./integrity-button.js";

/**
 * The session's `Patchgate` check run, kept on the PR's head. GitHub shows a PR the runs of its head
 * commit and cannot move a run to another commit, so `moveTo(sha)` creates the run on the new head
 * with the current output and then closes the previous one as `neutral` ("Moved to …", linking the
 * new one): one run is in progress per session, and the last one, on the final commit, carries the
 * whole timeline. The current run is updated at milestones and at most every `throttleMs` in
 * between, and completed with a conclusion when the session ends. Output is rendered from the ledger.
 */
export interface CheckRunOptions {
  secrets: string[];
  throttleMs: number;
  /** Where `/patchgate/keys` is reachable, for the Receipt section's verification line. */
  keysUrl?: string;
  /** Called for each run that becomes current, so its button leads back to the session. */
  onCurrent?: (id: number) => Promise<void>;
}

const CHECK_RUN_NAME = "Patchgate";

export class CheckRunPublisher {
  /** A job starts with the check run freshly updated by the previous milestone; the window starts now. */
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();
  private readonly records: CheckRunRecords;
  /** The session's PR once it exists: the summary links its Files tab. */
  private pullUrl: string | undefined;

  constructor(
    private readonly outbound: Outbound,
    private readonly store: SessionStore,
    private readonly ledger: Ledger,
    private readonly opts: CheckRunOptions,
  ) {
    this.records = new CheckRunRecords(store, ledger.sessionId);
  }

  /**
   * Makes the run on `headSha` the session's current one: adopted when a previous attempt created it
   * (and brought up to date), created otherwise; every older run still open is then closed. Runs in
   * the update chain, so a throttled update never lands on a run that was just closed.
   */
  moveTo(headSha: string): Promise<{ id: number; created: boolean }> {
    const work = this.chain.then(() => this.move(headSha));
    this.chain = work.then(
      () => {},
      () => {},
    );
    return work;
  }

  /** Whether a run was ever made current for this session (the start makes the first). */
  async started(): Promise<boolean> {
    return (await this.records.current()) !== null;
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
    const conclusion = conclusionOf(s);
    await (this.chain = this.chain.then(() => this.completeWithAnnotations(conclusion)));
  }

  /**
   * The completing update carries the first batch of provenance annotations, further updates the
   * rest — on the run of the pushed commit only, whose paths and lines they name. GitHub appends the
   * annotations of every update, so each batch is recorded once sent and a resumed completion sends
   * only the ones after it (a crash between sending and recording repeats one batch, never skips it).
   */
  private async completeWithAnnotations(conclusion: string): Promise<void> {
    const s = this.ledger.state;
    const run = await this.records.current();
    if (run !== null) await this.closeOthers(run);
    const parts = run !== null && s.published?.commit === run.sha ? checkRunAnnotations(s, this.ledger.history, this.opts.secrets) : [];
    const sent = run === null ? 0 : await this.records.annotatedBatches(run.sha);
    await this.patch({ status: "completed", conclusion, actions: [] }, parts[sent]);
    for (let i = sent; run !== null && i < parts.length; i++) {
      if (i > sent) await this.patch({}, parts[i]);
      await this.records.setAnnotatedBatches(run.sha, i + 1);
    }
  }

  private async move(sha: string): Promise<{ id: number; created: boolean }> {
    const current = await this.records.current();
    if (current?.sha === sha) {
      await this.patch({ actions: this.actions(this.ledger.state) });
      return { id: current.id, created: false };
    }
    const recorded = await this.records.get(sha);
    const { run, adopted } = recorded ? { run: recorded, adopted: true } : await this.create(sha);
    await this.opts.onCurrent?.(run.id);
    await this.closeOthers(run);
    await this.records.setCurrent(sha);
    // A run adopted from an attempt that died before this point may show an older state.
    if (adopted) await this.patch({ actions: this.actions(this.ledger.state) });
    this.last = Date.now();
    return { id: run.id, created: !adopted };
  }

  private async refreshPullUrl(): Promise<void> {
    this.pullUrl ??= (await storedPullRequest(this.store, this.ledger.sessionId))?.url;
  }

  /**
   * A process that dies between GitHub creating a run and the record of it would leave a second
   * run open on the commit; the next attempt finds the first on GitHub by its session tag instead
   * (asked only when an attempt was begun and not recorded, so the usual path costs no call).
   */
  private async create(sha: string): Promise<{ run: CheckRunRecord; adopted: boolean }> {
    await this.refreshPullUrl();
    const id = this.ledger.sessionId;
    const found = (await this.records.intended(sha)) ? await this.outbound.findCheckRun(CHECK_RUN_NAME, sha, id) : null;
    if (!found) await this.records.intend(sha);
    const data =
      found ??
      (await this.outbound.createCheckRun(
        { name: CHECK_RUN_NAME, head_sha: sha, status: "in_progress", output: this.output(), actions: this.actions(this.ledger.state) },
        id,
      ));
    const run = { sha, id: data.id, url: data.html_url ?? "" };
    await this.records.add(run);
    return { run, adopted: found !== null };
  }

  /**
   * Closes every other run of the session still open. A run whose record is missing was intended
   * by a process that died around its creation: GitHub is asked whether it exists, and it is
   * recorded and closed if so. If not, it is asked again next time (a create in flight when its
   * process died may still land): no run stays in progress behind the current one.
   */
  private async closeOthers(current: CheckRunRecord): Promise<void> {
    const { open, unrecorded } = await this.records.openExcept(current.sha);
    for (const sha of unrecorded) {
      const found = await this.outbound.findCheckRun(CHECK_RUN_NAME, sha, this.ledger.sessionId);
      if (!found) continue;
      const run = { sha, id: found.id, url: found.html_url ?? "" };
      await this.records.add(run);
      open.push(run);
    }
    for (const old of open) await this.close(old, current);
  }

  /** The run on an older head ends `neutral` and points at its successor. */
  private async close(old: CheckRunRecord, next: CheckRunRecord): Promise<void> {
    const short = next.sha.slice(0, 7);
    const output = {
      title: `Moved to ${short}`,
      summary: `Patchgate pushed \`${short}\`, the pull request's new head, so this session's check run continues there: ${next.url}`,
    };
    await this.outbound.updateCheckRun(
      old.id,
      { status: "completed", conclusion: "neutral", details_url: next.url || undefined, actions: [], output },
      this.ledger.sessionId,
    );
    await this.records.markMoved(old, next.sha);
  }

  private output(): { title: string; summary: string; text: string } {
    return renderCheckRun(this.ledger.state, this.ledger.history, {
      sessionId: this.ledger.sessionId,
      secrets: this.opts.secrets,
      pullUrl: this.pullUrl,
      keysUrl: this.opts.keysUrl,
    });
  }

  /**
   * The button for what waits: Approve plan, bound to the plan hash, or Approve tests, bound to the
   * test_integrity request's digest (an identifier is at most 20 characters, a label 20, a description 40).
   */
  private actions(s: SessionState): CheckRunAction[] {
    if (s.phase === "awaiting_integrity_approval" && s.integrity?.status === "pending")
      return [
        { label: "Approve tests", description: `Accept test_integrity ${shortHash(s.integrity.digest)}`, identifier: integrityButton(s.integrity.digest) },
      ];
    if (s.phase === "awaiting_grant" && s.grantRequest?.status === "pending")
      return [
        {
          label: "Allow",
          description: `Grant ${s.grantRequest.request.kind} ${shortHash(s.grantRequest.digest)}`,
          identifier: grantButton(s.grantRequest.digest),
        },
      ];
    if (s.phase !== "awaiting_plan_approval" || !s.planHash) return [];
    return [{ label: "Approve plan", description: `Approve plan ${shortHash(s.planHash)}`, identifier: `approve:${shortHash(s.planHash)}` }];
  }

  /** An update always sends the whole output: it replaces what it names (annotations are appended). */
  private async patch(extra: { status?: "completed"; conclusion?: string; actions?: CheckRunAction[] }, annotations?: Annotation[]): Promise<void> {
    const run = await this.records.current();
    if (run === null) return;
    await this.refreshPullUrl();
    await this.outbound.updateCheckRun(run.id, { ...extra, output: { ...this.output(), ...(annotations ? { annotations } : {}) } }, this.ledger.sessionId);
  }
}

function conclusionOf(s: SessionState): "success" | "cancelled" | "neutral" | "failure" | "action_required" {
  if (s.phase === "done") return "success";
  if (s.phase === "cancelled") return "cancelled";
  // Blocked needs a human to act (install a toolchain, …): what action_required says.
  if (s.phase === "blocked") return "action_required";
  return s.failure?.reason === "config_invalid" ? "neutral" : "failure";
}
