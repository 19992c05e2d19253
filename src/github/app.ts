import type { ApplicationFunction, ApplicationFunctionOptions, Context, Probot } from "probot";
import { anyBootCandidate } from "./session-work/boot-candidates.js";
import type { AppContext, PatchgateDeps } from "./deps.js";
import { healthHandler } from "./health-route.js";
import { keysHandler } from "./keys-route.js";
import { metricsHandler } from "./metrics/metrics-route.js";
import { startHousekeeping } from "./session-work/housekeeping.js";
import { runSchedules } from "./session-work/schedule-tick.js";
import { AppIdentity } from "./identity.js";
import { Inbox } from "./inbound/inbox.js";
import { SessionIndex } from "./session-work/session-index.js";
import { LIFECYCLE_EVENTS } from "./inbound/lifecycle-events.js";
import { everyInterval, reconcileDeliveries } from "./inbound/reconciler.js";
import { HANDLED_EVENTS } from "./inbound/triggers.js";
import { PULL_PUSH_EVENTS } from "./inbound/pull-push.js";
import { rootWebhookHandler } from "./inbound/root-webhook.js";

/** The app's own clients and the session index around `deps`: what every job builds on, made once. */
export function appContext(app: Probot, deps: PatchgateDeps): AppContext {
  const appOctokit = () => app.auth() as Promise<never>;
  return Object.freeze({
    deps,
    index: new SessionIndex(deps.store),
    identity: new AppIdentity(appOctokit),
    appOctokit,
    installation: (id: number) => app.auth(id) as Promise<never>,
  });
}

/**
 * The webhook side: store, deduplicate, enqueue — and answer. Nothing here calls GitHub or the
 * model; the delivery and its payload are durably in the inbox (./inbox.ts) before the 2xx, and the
 * work runs from the queue after the response has gone. At start, sessions a previous process left
 * mid-run are queued to resume (./boot-resume.ts), then deliveries it left unfinished run again,
 * before the app takes its first delivery. The reconciler then asks GitHub, at intervals, to send
 * again what failed to arrive while the app was down (./reconciler.ts).
 */
export function patchgateApp(deps: PatchgateDeps): ApplicationFunction {
  return async (app: Probot, options?: ApplicationFunctionOptions) => {
    // Probot 14's way to serve a route beside the webhooks (it replaced `getRouter`).
    options?.addHandler?.(healthHandler(deps));
    options?.addHandler?.(keysHandler(deps));
    const metrics = deps.metrics;
    if (metrics) options?.addHandler?.(metricsHandler({ ...deps, metrics }));
    options?.addHandler?.(rootWebhookHandler(app));
    const access = appContext(app, deps);
    const inbox = new Inbox(access);
    app.on([...HANDLED_EVENTS, ...LIFECYCLE_EVENTS, ...PULL_PUSH_EVENTS], async (context: Context) => {
      // Not context.octokit: a job builds its own client when it runs (./inbound/inbox.ts).
      const began = performance.now();
      await inbox.receive({ id: context.id, event: context.name, payload: context.payload });
      metrics?.webhookHandled(context.name, (performance.now() - began) / 1000);
    });
    // Under a durable queue a session that was mid-run is still a job in the queue, which a worker
    // takes over once the dead one's lease runs out: nothing to resume here. Lazy: the resume path
    // (session work, the loop) loads only when there is a session to resume.
    const resumed =
      deps.queue.durable || !(await anyBootCandidate(deps.store)) ? 0 : await (await import("./session-work/boot-resume.js")).resumeInterrupted(access);
    if (resumed > 0) deps.log(`${resumed} interrupted session(s) queued to resume`);
    const replayed = await inbox.replayPending().catch((e: unknown) => {
      // GitHub unreachable at boot: the rows stay pending for the next start or redelivery.
      deps.log(`inbox replay failed: ${e instanceof Error ? e.message : String(e)}`, "error");
      return 0;
    });
    if (replayed > 0) deps.log(`${replayed} unfinished delivery(ies) queued again`);
    // A receiver runs no session: under a durable queue the workers clean their own disks.
    if (!deps.queue.durable) startHousekeeping(deps);
    // Under a durable queue the workers' minute wake-up rings the pass (../github/scale-out.ts), not a timer here.
    const schedules = deps.schedules;
    if (schedules && !deps.queue.durable) schedules.every(async () => void (await runSchedules(access, schedules.now())));
    if (deps.reconcile) {
      const handles = (name: string) => ([...HANDLED_EVENTS, ...LIFECYCLE_EVENTS, ...PULL_PUSH_EVENTS] as string[]).includes(name);
      const pass = () => reconcileDeliveries({ app: access.appOctokit, store: deps.store, log: deps.log, handles });
      everyInterval(pass, { ...deps.reconcile, log: deps.log });
    }
  };
}
