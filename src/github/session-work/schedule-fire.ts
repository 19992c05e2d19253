import { z } from "zod";
import { triggerOf, type Automation } from "../../config/automations.js";
import { Ledger } from "../../store/ledger.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import { FatalError } from "../../errors/index.js";
import type { JobSpec } from "../../queue/types.js";
import type { Octokit } from "../octokit.js";
import { withToken, type AppContext, type JobContext } from "../deps.js";
import { issueKey, type Delivery, type Repo, type Sender } from "../inbound/intent.js";
import { checkPermission } from "../inbound/permission.js";
import { freshGitToken } from "../outbound/git-remote.js";
import { Outbound } from "../outbound/outbound.js";
import { automationSource, automationsOf, readAutomations, type DeclaredAutomations } from "./automation-config.js";
import { scheduleIssue } from "./schedule-issue.js";
import { EntrySchema, firingDone, rememberSchedules } from "./schedule-registry.js";
import { startSession } from "./start.js";

/** A schedule's firing for one due time (ISO), claimed once in the store. */
const FiringSchema = z.object({ repo: EntrySchema, name: z.string().min(1), due: z.string().datetime() });
export type Firing = z.infer<typeof FiringSchema>;

/** What a firing knows once the default branch's config and the owner's access were read again. */
interface Prepared {
  octokit: Octokit;
  repo: Repo;
  declared: DeclaredAutomations;
  automation: Automation;
  task: string;
  owner: Sender;
}

/**
 * A firing: the default branch's config is read again (a schedule removed since fires nothing), the
 * owner must have write access now, the run's issue is found or opened, and the session starts in
 * that issue's lane as an issue automation's would (the plan gate, `approve_plan: auto`, writes
 * waiting for a person). Nothing is said when it does not run: there is no one to say it to.
 */
export async function fireSchedule(a: AppContext, f: Firing): Promise<void> {
  const p = await prepare(a, f);
  if (!p) return;
  const { octokit, repo, automation } = p;
  const title = `Patchgate: ${automation.name}`;
  const outbound = new Outbound(octokit, repo, { secrets: a.deps.secrets, htmlBase: a.deps.gitBase });
  const issue = await scheduleIssue(octokit, outbound, repo, (await a.identity.get(octokit)).name, title, automation.name);
  a.deps.log(`automation ${automation.name} fires (due ${f.due}) on #${issue} for @${p.owner.login}`);
  a.deps.queue.enqueue({
    key: issueKey(repo, issue),
    name: `schedule ${automation.name} #${issue}`,
    group: `installation:${repo.installationId}`,
    // A worker of a scaled-out app prepares it again (./durable-runner.ts): a closure cannot cross processes.
    spec: { kind: "schedule-run", firing: f, issue },
    run: () => startRun(a, f, scheduledRun(p, f, issue)),
  });
}

/** The run of a firing on issue `issue`, in that issue's lane, as a worker runs it from its spec: prepared again first. */
export async function runFiring(a: AppContext, f: Firing, issue: number): Promise<void> {
  const p = await prepare(a, f);
  if (p) await startRun(a, f, scheduledRun(p, f, issue));
}

/** A queued firing whose spec does not hold one (written by another version, or damaged). */
export class FiringSpecError extends FatalError {
  readonly kind = "firing_spec";
}

/** A firing from a job's spec (`firing`), or a typed error naming the job. */
export function firingOf(spec: JobSpec): Firing {
  const parsed = FiringSchema.safeParse(spec.firing);
  if (!parsed.success) throw new FiringSpecError(`job ${spec.kind}: its firing is invalid (${parsed.error.issues[0]?.message ?? "not a firing"})`);
  return parsed.data;
}

/** The run's issue number from a job's spec. */
export function issueOf(spec: JobSpec): number {
  const n = spec.issue;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1)
    throw new FiringSpecError(`job ${spec.kind}: its issue ${JSON.stringify(n)} is not an issue number`);
  return n;
}

async function prepare(a: AppContext, f: Firing): Promise<Prepared | null> {
  const tenant = { installationId: f.repo.installationId, repoId: f.repo.repoId };
  const turnedDown = async (why: string) => {
    a.deps.log(`schedule ${f.name}: ${why}; not fired`);
    await firingDone(a.deps.store, tenant, f.name, f.due);
    return null;
  };
  const octokit = await a.installation(f.repo.installationId);
  const { data } = await octokit.rest.repos.get({ owner: f.repo.owner, repo: f.repo.repo });
  if (data.id !== f.repo.repoId) return turnedDown(`${f.repo.owner}/${f.repo.repo} is now another repository`);
  const repo: Repo = { id: data.id, owner: f.repo.owner, repo: f.repo.repo, defaultBranch: data.default_branch, installationId: f.repo.installationId };
  const declared = await readAutomations(octokit, repo);
  const automations = declared ? automationsOf(declared) : [];
  // A schedule this read learns counts from now: a late firing's due time lies in the past, when nobody knew of it.
  await rememberSchedules(a.deps.store, repo, automations, a.deps.schedules?.now() ?? new Date());
  const automation = automations.find((x) => x.name === f.name);
  const trigger = automation ? triggerOf(automation) : null;
  if (!declared || !automation || trigger?.kind !== "schedule") return turnedDown("no longer declared");
  const { data: user } = await octokit.rest.users.getByUsername({ username: trigger.owner });
  const owner: Sender = { login: user.login, id: user.id, type: user.type };
  const access = owner.type === "User" ? await checkPermission(octokit, repo, owner) : { allowed: false, role: owner.type };
  if (!access.allowed) return turnedDown(`@${owner.login} has no write access (${access.role})`);
  return { octokit, repo, declared, automation, task: trigger.task, owner };
}

function scheduledRun(p: Prepared, f: Firing, issue: number): ScheduledRun {
  const title = `Patchgate: ${p.automation.name}`;
  const delivery: Delivery = {
    id: `schedule-${f.name}-${f.due}`,
    event: "schedule",
    repo: p.repo,
    sender: p.owner,
    intent: { kind: "issue_event", event: "issue_opened", label: null, thread: { number: issue, isPullRequest: false, title, body: "" }, at: f.due },
    source: `schedule:${p.automation.name}@${f.due}`,
  };
  return { delivery, declared: p.declared, automation: p.automation, task: p.task };
}

interface ScheduledRun {
  delivery: Delivery;
  declared: DeclaredAutomations;
  automation: Automation;
  task: string;
}

/** In the issue's lane: the run starts unless it already did (a firing tried again) or the previous run still works. */
async function startRun(a: AppContext, f: Firing, r: ScheduledRun): Promise<void> {
  const { repo, source } = r.delivery;
  const issue = r.delivery.intent.kind === "issue_event" ? r.delivery.intent.thread : null;
  if (!issue) return;
  const id = await a.index.sessionOfIssue(repo, issue.number);
  const prior = id ? await Ledger.open(a.deps.store, id) : null;
  if (prior && prior.state.task.source.trigger === source) a.deps.log(`${source} already started session ${prior.sessionId}`);
  // One run at a time: a run still working when the next comes due is left to finish.
  else if (prior && !TERMINAL_PHASES.includes(prior.state.phase))
    a.deps.log(`${source}: the previous run is still ${prior.state.phase} on #${issue.number}; not fired`);
  else {
    const octokit = await a.installation(repo.installationId);
    const outbound = new Outbound(octokit, repo, { secrets: a.deps.secrets, htmlBase: a.deps.gitBase });
    const base = {
      deps: a.deps,
      delivery: r.delivery,
      octokit,
      appOctokit: a.appOctokit,
      index: a.index,
      identity: a.identity,
      outbound,
      readConfig: r.declared.readConfig,
    };
    const jc: JobContext = withToken(base, await freshGitToken(await a.appOctokit(), repo));
    const automation = automationSource(r.automation, r.declared);
    await startSession(jc, prior, { issue: issue.number, title: issue.title, body: "", instruction: r.task, followUp: false, automation });
  }
  await firingDone(a.deps.store, { installationId: f.repo.installationId, repoId: f.repo.repoId }, f.name, f.due);
}
