import type { ApplicationFunction, Context, Probot } from "probot";
import { resumeInterrupted } from "./boot-resume.js";
import type { PatchgateDeps } from "./deps.js";
import { AppIdentity } from "./identity.js";
import { Inbox } from "./inbox.js";
import { SessionIndex } from "./session-index.js";
import { LIFECYCLE_EVENTS } from "./lifecycle-events.js";
import { everyInterval, reconcileDeliveries } from "./reconciler.js";
import { HANDLED_EVENTS } from "./triggers.js";

/**
 * The webhook side: store, deduplicate, enqueue — and answer. Nothing here calls GitHub or the
 * model; the delivery and its payload are durably in the inbox (./inbox.ts) before the 2xx, and the
 * work runs from the queue after the response has gone. At start, sessions a previous process left
 * mid-run are queued to resume (./boot-resume.ts), then deliveries it left unfinished run again,
 * before the app takes its first delivery. The reconciler then asks GitHub, at intervals, to send
 * again what failed to arrive while the app was down (./reconciler.ts).
 */
export function patchgateApp(deps: PatchgateDeps): ApplicationFunction {
  return async (app: Probot) => {
    const index = new SessionIndex(deps.store);
    const appOctokit = () => app.auth() as Promise<never>;
    const identity = new AppIdentity(appOctokit);
    const installation = (id: number) => app.auth(id) as Promise<never>;
    const access = { deps, index, identity, appOctokit, installation };
    const inbox = new Inbox(access);
    app.on([...HANDLED_EVENTS, ...LIFECYCLE_EVENTS], async (context: Context) => {
      await inbox.receive({ id: context.id, event: context.name, payload: context.payload }, context.octokit);
    });
    const resumed = await resumeInterrupted(access);
    if (resumed > 0) deps.log(`${resumed} interrupted session(s) queued to resume`);
    const replayed = await inbox.replayPending().catch((e: unknown) => {
      // GitHub unreachable at boot: the rows stay pending for the next start or redelivery.
      deps.log(`inbox replay failed: ${e instanceof Error ? e.message : String(e)}`);
      return 0;
    });
    if (replayed > 0) deps.log(`${replayed} unfinished delivery(ies) queued again`);
    if (deps.reconcile) {
      const handles = (name: string) => ([...HANDLED_EVENTS, ...LIFECYCLE_EVENTS] as string[]).includes(name);
      const pass = () => reconcileDeliveries({ app: appOctokit, store: deps.store, log: deps.log, handles });
      everyInterval(pass, { ...deps.reconcile, log: deps.log });
    }
  };
}
