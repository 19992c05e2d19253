import type { ApplicationFunction, Context, Probot } from "probot";
import type { PatchgateDeps } from "./deps.js";
import { AppIdentity } from "./identity.js";
import { jobsFor } from "./jobs.js";
import { SessionIndex } from "./session-index.js";
import { HANDLED_EVENTS, toDelivery } from "./triggers.js";

/**
 * The webhook side: parse, deduplicate, enqueue — and answer. Nothing here calls GitHub or the
 * model; the delivery id is durably recorded before the 2xx, so a redelivery is a no-op, and the
 * work runs from the queue after the response has gone.
 */
export function patchgateApp(deps: PatchgateDeps): ApplicationFunction {
  return (app: Probot) => {
    const index = new SessionIndex(deps.store);
    const appOctokit = () => app.auth() as Promise<never>;
    const identity = new AppIdentity(appOctokit);
    app.on([...HANDLED_EVENTS], async (context: Context) => {
      const name = `${context.name}.${(context.payload as { action?: string }).action ?? ""}`;
      const delivery = toDelivery(context.id, name, context.payload);
      if (!delivery) return;
      if (!(await deps.store.recordDelivery(delivery.id, name))) {
        deps.log(`redelivery ${delivery.id} ignored`);
        return;
      }
      const issue = await index.issueOf(delivery);
      if (issue === null) return;
      deps.log(`${name} from @${delivery.sender.login} → queued`);
      deps.queue.enqueue(
        jobsFor({ deps, delivery, octokit: context.octokit, appOctokit, index, identity, readConfig: () => context.config("patchgate.yml") }, issue),
      );
    });
  };
}
