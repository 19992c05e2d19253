import type { ApplicationFunction, Context, Probot } from "probot";
import { resumeInterrupted } from "./boot-resume.js";
import type { PatchgateDeps } from "./deps.js";
import { AppIdentity } from "./identity.js";
import { jobsFor } from "./jobs.js";
import { SessionIndex } from "./session-index.js";
import { HANDLED_EVENTS, toDelivery } from "./triggers.js";
import { MalformedWebhookError } from "./malformed-webhook.js";
import { Outbound } from "./outbound.js";

/**
 * The webhook side: parse, deduplicate, enqueue — and answer. Nothing here calls GitHub or the
 * model; the delivery id is durably recorded before the 2xx, so a redelivery is a no-op, and the
 * work runs from the queue after the response has gone. At start, sessions a previous process left
 * mid-run are queued to resume (./boot-resume.ts) before the app takes its first delivery.
 */
export function patchgateApp(deps: PatchgateDeps): ApplicationFunction {
  return async (app: Probot) => {
    const index = new SessionIndex(deps.store);
    const appOctokit = () => app.auth() as Promise<never>;
    const identity = new AppIdentity(appOctokit);
    app.on([...HANDLED_EVENTS], async (context: Context) => {
      const name = `${context.name}.${(context.payload as { action?: string }).action ?? ""}`;
      let delivery: ReturnType<typeof toDelivery>;
      try {
        delivery = toDelivery(context.id, name, context.payload);
      } catch (e) {
        if (!MalformedWebhookError.isInstance(e)) throw e;
        deps.log(e.message);
        return;
      }
      if (!delivery) return;
      if (!(await deps.store.recordDelivery(delivery.id, name))) {
        deps.log(`redelivery ${delivery.id} ignored`);
        return;
      }
      const issue = await index.issueOf(delivery);
      if (issue === null) return;
      deps.log(`${name} from @${delivery.sender.login} → queued`);
      const outbound = new Outbound(context.octokit, delivery.repo, { secrets: deps.secrets, htmlBase: deps.gitBase });
      const intake = Object.freeze({ deps, delivery, octokit: context.octokit, appOctokit, index, identity, readConfig: () => context.config("patchgate.yml"), outbound });
      deps.queue.enqueue(jobsFor(intake, issue));
    });
    const installation = (id: number) => app.auth(id) as Promise<never>;
    const resumed = await resumeInterrupted({ deps, index, identity, appOctokit, installation });
    if (resumed > 0) deps.log(`${resumed} interrupted session(s) queued to resume`);
  };
}
