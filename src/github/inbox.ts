import type { DeliveryState } from "../store/types.js";
import type { PatchgateDeps } from "./deps.js";
import type { AppIdentity } from "./identity.js";
import type { Delivery } from "./intent.js";
import { jobsFor } from "./jobs.js";
import { MalformedWebhookError } from "./malformed-webhook.js";
import type { Octokit } from "./octokit.js";
import { Outbound } from "./outbound.js";
import { configReader } from "./repo-config.js";
import type { SessionIndex } from "./session-index.js";
import { toDelivery } from "./triggers.js";

/**
 * The durable inbox (DESIGN §2, intake). A delivery that asks something of Patchgate is stored with
 * its payload in the same transaction that dedups it, before the webhook is answered; the queue works
 * from it; the row is marked done only after its job has settled (its effects recorded, or its
 * failure answered). At boot, rows that are not done run again — their jobs are idempotent by their
 * effects. A redelivery of a row that is not done is processed (unless this process is running it
 * right now); of a done row, it is a no-op.
 */
export interface RawDelivery {
  id: string;
  /** The `X-GitHub-Event` header. */
  event: string;
  payload: unknown;
}

export class Inbox {
  /** Deliveries this process has queued and not finished: a redelivery of one waits for it instead. */
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: PatchgateDeps,
    private readonly index: SessionIndex,
    private readonly identity: AppIdentity,
    private readonly appOctokit: () => Promise<Octokit>,
  ) {}

  /** A webhook as it arrives: parsed, stored, queued. Resolves once it is durable (before the 2xx). */
  async receive(raw: RawDelivery, octokit: Octokit): Promise<void> {
    const delivery = this.parse(raw);
    if (!delivery) return;
    const state: DeliveryState = await this.deps.store.receiveDelivery({ id: raw.id, event: raw.event, payload: JSON.stringify(raw.payload) });
    if (state === "done" || this.running.has(raw.id)) {
      this.deps.log(`redelivery ${raw.id} ignored (${state === "done" ? "already done" : "already running"})`);
      return;
    }
    await this.dispatch(delivery, octokit);
  }

  /** At boot: every delivery a previous process stored and did not finish, in arrival order. */
  async replayPending(installation: (id: number) => Promise<Octokit>): Promise<number> {
    let n = 0;
    for (const row of await this.deps.store.pendingDeliveries()) {
      const delivery = this.parse({ id: row.id, event: row.event, payload: JSON.parse(row.payload) });
      if (!delivery) {
        await this.deps.store.completeDelivery(row.id);
        continue;
      }
      this.deps.log(`delivery ${row.id} (${delivery.event}) was not done when the app stopped → queued again`);
      await this.dispatch(delivery, await installation(delivery.repo.installationId));
      n += 1;
    }
    return n;
  }

  private parse(raw: RawDelivery): Delivery | null {
    const name = `${raw.event}.${(raw.payload as { action?: string } | null)?.action ?? ""}`;
    try {
      return toDelivery(raw.id, name, raw.payload);
    } catch (e) {
      if (!MalformedWebhookError.isInstance(e)) throw e;
      this.deps.log(e.message);
      return null;
    }
  }

  private async dispatch(delivery: Delivery, octokit: Octokit): Promise<void> {
    const finish = async () => {
      await this.deps.store.completeDelivery(delivery.id);
      this.running.delete(delivery.id);
      this.deps.log(`delivery ${delivery.id} done`);
    };
    this.running.add(delivery.id);
    const issue = await this.index.issueOf(delivery);
    if (issue === null) return finish();
    this.deps.log(`${delivery.event} from @${delivery.sender.login} → queued`);
    const outbound = new Outbound(octokit, delivery.repo, { secrets: this.deps.secrets, htmlBase: this.deps.gitBase });
    const intake = Object.freeze({ deps: this.deps, delivery, octokit, appOctokit: this.appOctokit, index: this.index, identity: this.identity, readConfig: configReader(octokit, delivery.repo), outbound });
    const job = jobsFor(intake, issue);
    this.deps.queue.enqueue({
      ...job,
      run: async () => {
        try {
          await job.run();
        } finally {
          await finish();
        }
      },
    });
  }
}
