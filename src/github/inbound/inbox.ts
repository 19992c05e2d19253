import type { DeliveryState } from "../../store/types.js";
import { issueKey, type Delivery } from "./intent.js";
import type { Job } from "../../queue/types.js";
import { lifecycleOf, type Lifecycle } from "./lifecycle-events.js";
import { pullPushOf, type PullPush } from "./pull-push.js";
import { MalformedWebhookError } from "./malformed-webhook.js";
import type { AppContext, Intake } from "../deps.js";
import { toDelivery } from "./triggers.js";

/**
 * The durable inbox (DESIGN §2, intake). A delivery that asks something of Patchgate is stored with
 * its payload in the same transaction that dedups it, before the webhook is answered; the queue works
 * from it; the row is marked done only after its job has settled (its effects recorded, or its
 * failure answered). At boot, rows that are not done run again — their jobs are idempotent by their
 * effects. A redelivery of a row that is not done is processed (unless this process is running it
 * right now); of a done row, it is a no-op. Lifecycle events (an uninstall, a rename…) go the same
 * way: stored first, done once applied.
 *
 * What runs a delivery's work (jobs, sessions, the agent, posting) is loaded when the first delivery
 * needs it, not at boot: an idle app holds only this intake path.
 */
export interface RawDelivery {
  id: string;
  /** The `X-GitHub-Event` header. */
  event: string;
  payload: unknown;
}

type WorkModules = [typeof import("../session-work/jobs.js"), typeof import("../outbound/outbound.js"), typeof import("../session-work/repo-config.js")];
let workModules: Promise<WorkModules> | null = null;

/**
 * Loaded once per process, by the first delivery that needs them: an `import()` per delivery would
 * resolve the same three modules again each time (a loader round trip, and under tsx a message to its
 * thread), main-thread work on every webhook. A failed load is tried again by the next delivery.
 */
function loadWork(): Promise<WorkModules> {
  workModules ??= Promise.all([import("../session-work/jobs.js"), import("../outbound/outbound.js"), import("../session-work/repo-config.js")]).catch((e) => {
    workModules = null;
    throw e;
  });
  return workModules;
}

export class Inbox {
  /** Deliveries this process has queued and not finished: a redelivery of one waits for it instead. */
  private readonly running = new Set<string>();

  constructor(private readonly access: AppContext) {}

  private get deps() {
    return this.access.deps;
  }

  /** A webhook as it arrives: parsed, stored, queued. Resolves once it is durable (before the 2xx). */
  async receive(raw: RawDelivery): Promise<void> {
    const parsed = this.parse(raw);
    if (!parsed) return;
    const state: DeliveryState = await this.deps.store.receiveDelivery({ id: raw.id, event: raw.event, payload: JSON.stringify(raw.payload) });
    if (state === "done" || this.running.has(raw.id)) {
      this.deps.log(`redelivery ${raw.id} ignored (${state === "done" ? "already done" : "already running"})`);
      return;
    }
    await this.route(raw.id, parsed);
    // A durable queue stores the job asynchronously: it is stored before the webhook is answered.
    await this.deps.queue.flushed?.();
  }

  /** At boot: every delivery a previous process stored and did not finish, in arrival order. */
  async replayPending(): Promise<number> {
    let n = 0;
    for (const row of await this.deps.store.pendingDeliveries()) {
      const payload = JSON.parse(row.payload) as { action?: string } | null;
      const parsed = this.parse({ id: row.id, event: row.event, payload });
      if (!parsed) {
        await this.deps.store.completeDelivery(row.id);
        continue;
      }
      this.deps.log(`delivery ${row.id} (${row.event}.${payload?.action ?? ""}) was not done when the app stopped → queued again`);
      await this.route(row.id, parsed);
      n += 1;
    }
    return n;
  }

  private async route(id: string, parsed: Delivery | Lifecycle | PullPush): Promise<void> {
    if ("intent" in parsed) await this.dispatch(parsed);
    else if (parsed.kind === "pull_pushed") this.dispatchPullPush(parsed);
    else this.dispatchLifecycle(id, parsed);
  }

  private parse(raw: RawDelivery): Delivery | Lifecycle | PullPush | null {
    const name = `${raw.event}.${(raw.payload as { action?: string } | null)?.action ?? ""}`;
    try {
      return lifecycleOf(raw.id, name, raw.payload) ?? pullPushOf(raw.id, name, raw.payload) ?? toDelivery(raw.id, name, raw.payload);
    } catch (e) {
      if (!MalformedWebhookError.isInstance(e)) throw e;
      this.deps.log(e.message);
      return null;
    }
  }

  private finisher(id: string): () => Promise<void> {
    // A durable queue runs the job in another process: this one never sees it end.
    if (!this.deps.queue.durable) this.running.add(id);
    return async () => {
      await this.deps.store.completeDelivery(id);
      this.running.delete(id);
      this.deps.log(`delivery ${id} done`);
    };
  }

  /** Not in a session's lane: it reaches into several, each in turn (./lifecycle.ts). */
  private dispatchLifecycle(id: string, e: Lifecycle): void {
    const scope = e.kind === "moved" ? `repo:${e.repo.id}` : `installation:${e.installationId}`;
    this.deps.log(`${e.kind} (${scope}) from @${e.by} → queued`);
    const run = this.lifecycleRun(id, e);
    this.deps.queue.enqueue({
      key: `lifecycle:${scope}`,
      name: `${e.kind} ${id}`,
      run,
      spec: { kind: "delivery", id },
      group: `installation:${e.kind === "moved" ? e.repo.installationId : e.installationId}`,
    });
  }

  /**
   * In the PR's own receipt lane, not its session's: a status is judged while the session works, and
   * two pushes of one PR are judged one after the other.
   */
  private dispatchPullPush(p: PullPush): void {
    this.deps.log(`#${p.pull} moved to ${p.head.slice(0, 7)} → receipt status queued`);
    this.deps.queue.enqueue({
      key: `receipt:${issueKey(p.repo, p.pull)}`,
      name: `receipt status ${p.id}`,
      run: this.pullPushRun(p),
      spec: { kind: "delivery", id: p.id },
      group: `installation:${p.repo.installationId}`,
    });
  }

  private pullPushRun(p: PullPush): () => Promise<void> {
    const finish = this.finisher(p.id);
    return async () => {
      try {
        // Lazy, like the work modules: only a PR push loads the receipt checks.
        const { runReceiptStatus } = await import("../session-work/receipt-job.js");
        await runReceiptStatus(this.access, p);
      } catch (err) {
        // Not judged (GitHub unreachable?): the row stays pending, for a redelivery or the next boot.
        this.running.delete(p.id);
        throw err;
      }
      await finish();
    };
  }

  private lifecycleRun(id: string, e: Lifecycle): () => Promise<void> {
    const finish = this.finisher(id);
    return async () => {
      try {
        // Lazy, like the work modules: applying a lifecycle event loads the session work behind it.
        const { applyLifecycle } = await import("../session-work/lifecycle.js");
        await applyLifecycle(this.access, e, id);
      } catch (err) {
        // Not applied (GitHub unreachable?): the row stays pending, for a redelivery or the next boot.
        this.running.delete(id);
        throw err;
      }
      await finish();
    };
  }

  private async dispatch(delivery: Delivery): Promise<void> {
    const job = await this.deliveryJob(delivery);
    if (!job) return;
    this.deps.log(`${delivery.event} from @${delivery.sender.login} → queued`);
    this.deps.queue.enqueue(job);
  }

  /** The delivery's job in its issue's lane, marking the row done when it ends; null when it leads nowhere. */
  private async deliveryJob(delivery: Delivery): Promise<Job | null> {
    const finish = this.finisher(delivery.id);
    const issue = await this.access.index.issueOf(delivery);
    if (issue === null) {
      await finish();
      return null;
    }
    const [{ jobLane, jobsFor }] = await loadWork();
    return {
      ...jobLane(delivery, issue),
      spec: { kind: "delivery", id: delivery.id },
      group: `installation:${delivery.repo.installationId}`,
      run: async () => {
        try {
          await jobsFor(await this.intake(delivery), issue).run();
        } finally {
          await finish();
        }
      },
    };
  }

  /**
   * What a delivery's job works with, built when it starts: a job waiting in its lane holds the parsed
   * delivery and nothing of the webhook. Probot's per-event client would keep the whole event alive
   * (its x-github-delivery hook closes over it): ~29 KB a queued job, which at 200 deliveries/s the
   * young-generation collector copies again and again. The header is set here instead, on
   * a replayed delivery's requests too.
   */
  private async intake(delivery: Delivery): Promise<Intake> {
    const [, { Outbound }, { configReader }] = await loadWork();
    const octokit = await this.access.installation(delivery.repo.installationId);
    const id = delivery.id;
    octokit.hook.before("request", (options) => {
      options.headers["x-github-delivery"] = id;
    });
    const outbound = new Outbound(octokit, delivery.repo, { secrets: this.deps.secrets, htmlBase: this.deps.gitBase });
    const { deps, appOctokit, index, identity } = this.access;
    return Object.freeze({ deps, delivery, octokit, appOctokit, index, identity, readConfig: configReader(octokit, delivery.repo), outbound });
  }

  /**
   * A worker's half of a durable queue's `delivery` job: the stored delivery, run here. A row that
   * is done by now (a redelivery queued it twice, the first copy ran) is a no-op.
   */
  async runStored(id: string): Promise<void> {
    const row = await this.deps.store.pendingDelivery(id);
    if (!row) return this.deps.log(`delivery ${id} is done already; nothing to run`);
    const parsed = this.parse({ id: row.id, event: row.event, payload: JSON.parse(row.payload) as unknown });
    if (!parsed) return this.deps.store.completeDelivery(row.id);
    if (!("intent" in parsed)) return parsed.kind === "pull_pushed" ? this.pullPushRun(parsed)() : this.lifecycleRun(id, parsed)();
    const job = await this.deliveryJob(parsed);
    if (job) await job.run();
  }
}
