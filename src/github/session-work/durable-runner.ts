import type { ItemRunner } from "../../queue/pg/lane-runner.js";
import type { JobSpec } from "../../queue/types.js";
import type { Fence } from "../../store/fence.js";
import type { PostgresSessionStore } from "../../store/pg-store.js";
import { Ledger } from "../../store/ledger.js";
import { resumeInterruptedSession } from "./boot-resume.js";
import { cancel } from "./control.js";
import { Inbox } from "../inbound/inbox.js";
import { cancelInLane } from "./lifecycle.js";
import { SessionIndex } from "./session-index.js";
import type { AppContext } from "../deps.js";
import { sessionWork } from "./session-work.js";

/**
 * A worker's side of the durable queue: each job's spec back into the work it names, run under the
 * lane's lease. Every write of the job goes through a store fenced by that lease, so a worker that
 * lost its lease (it hung past the expiry and another worker took the session) fails at its next
 * write, before the effect that write would have announced; and losing the lease aborts whatever
 * this process runs for the lane, as `/agent stop` would.
 */
export function durableRunner(access: AppContext, store: PostgresSessionStore): ItemRunner {
  return async (spec, ctx) => {
    const a = fencedContext(access, store, ctx.lease);
    const fenced = a.deps.store;
    const lost = () => access.deps.aborts.abort(ctx.lane, "this session passed to another worker");
    ctx.signal.addEventListener("abort", lost, { once: true });
    try {
      await run(a, spec);
      // The worker that ran this before died in it: the job's decision may be in the ledger already
      // (so running it again changed nothing) with the session left mid-run. Drive it on, as a
      // restarted app does at boot.
      const session = ctx.attempt > 1 ? await fenced.findByKey(ctx.lane) : null;
      if (session) await resumeInterruptedSession(a, session, `takeover-${ctx.lease.epoch}`, "its worker died");
    } finally {
      ctx.signal.removeEventListener("abort", lost);
    }
  };
}

/** The app's context with every store write checked against `lease` (src/store/fence.ts). */
export function fencedContext(access: AppContext, store: PostgresSessionStore, lease: Fence): AppContext {
  const fenced = store.fenced(lease);
  return { ...access, deps: { ...access.deps, store: fenced }, index: new SessionIndex(fenced) };
}

async function run(a: AppContext, spec: JobSpec): Promise<void> {
  const text = (field: string): string => {
    const v = spec[field];
    if (typeof v !== "string") throw new Error(`job ${spec.kind}: ${field} is not a string`);
    return v;
  };
  switch (spec.kind) {
    case "delivery":
      return new Inbox(a).runStored(text("id"));
    case "lifecycle-cancel":
      return cancelInLane(a, text("sessionId"), text("reason"), text("source"));
    case "stop-cancel": {
      const ledger = await Ledger.open(a.deps.store, text("sessionId"));
      const work = await sessionWork(a, ledger, text("deliveryId"), "issue_comment");
      const jc = { ...work, delivery: { ...work.delivery, sender: { login: text("by") }, source: typeof spec.source === "string" ? spec.source : undefined } };
      return cancel(jc, ledger.sessionId, Number(spec.reply), spec.interrupted === true);
    }
    // Lazy: the automations' config and schema load only where schedules fire.
    case "schedule-fire": {
      const { fireSchedule, firingOf } = await import("./schedule-fire.js");
      return fireSchedule(a, firingOf(spec));
    }
    case "schedule-run": {
      const { runFiring, firingOf, issueOf } = await import("./schedule-fire.js");
      return runFiring(a, firingOf(spec), issueOf(spec));
    }
    default:
      throw new Error(`unknown job kind ${JSON.stringify(spec.kind)}`);
  }
}
