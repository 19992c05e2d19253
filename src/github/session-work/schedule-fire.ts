import { triggerOf, type Automation } from "../../config/automations.js";
import { Ledger } from "../../store/ledger.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import { withToken, type AppContext, type JobContext } from "../deps.js";
import { issueKey, type Delivery, type Repo, type Sender } from "../inbound/intent.js";
import { checkPermission } from "../inbound/permission.js";
import { freshGitToken } from "../outbound/git-remote.js";
import { Outbound } from "../outbound/outbound.js";
import { automationSource, automationsOf, readAutomations, type DeclaredAutomations } from "./automation-config.js";
import { scheduleIssue } from "./schedule-issue.js";
import { firingDone, rememberSchedules, type ScheduledRepo } from "./schedule-registry.js";
import { startSession } from "./start.js";

/** A schedule's firing for one due time (ISO), claimed once in the store. */
export interface Firing {
  repo: ScheduledRepo;
  name: string;
  due: string;
}

/**
 * A firing: the default branch's config is read again (a schedule removed since fires nothing), the
 * owner must have write access now, the run's issue is found or opened, and the session starts in
 * that issue's lane as an issue automation's would (the plan gate, `approve_plan: auto`, writes
 * waiting for a person). Nothing is said when it does not run: there is no one to say it to.
 */
export async function fireSchedule(a: AppContext, f: Firing): Promise<void> {
  const tenant = { installationId: f.repo.installationId, repoId: f.repo.repoId };
  const turnedDown = async (why: string) => {
    a.deps.log(`schedule ${f.name}: ${why}; not fired`);
    await firingDone(a.deps.store, tenant, f.name, f.due);
  };
  const octokit = await a.installation(f.repo.installationId);
  const { data } = await octokit.rest.repos.get({ owner: f.repo.owner, repo: f.repo.repo });
  if (data.id !== f.repo.repoId) return turnedDown(`${f.repo.owner}/${f.repo.repo} is now another repository`);
  const repo: Repo = { id: data.id, owner: f.repo.owner, repo: f.repo.repo, defaultBranch: data.default_branch, installationId: f.repo.installationId };
  const declared = await readAutomations(octokit, repo);
  const automations = declared ? automationsOf(declared) : [];
  await rememberSchedules(a.deps.store, repo, automations, new Date(f.due));
  const automation = automations.find((x) => x.name === f.name);
  const trigger = automation ? triggerOf(automation) : null;
  if (!declared || !automation || trigger?.kind !== "schedule") return turnedDown("no longer declared");
  const { data: user } = await octokit.rest.users.getByUsername({ username: trigger.owner });
  const owner: Sender = { login: user.login, id: user.id, type: user.type };
  const access = owner.type === "User" ? await checkPermission(octokit, repo, owner) : { allowed: false, role: owner.type };
  if (!access.allowed) return turnedDown(`@${owner.login} has no write access (${access.role})`);
  const title = `Patchgate: ${automation.name}`;
  const outbound = new Outbound(octokit, repo, { secrets: a.deps.secrets, htmlBase: a.deps.gitBase });
  const issue = await scheduleIssue(octokit, outbound, repo, (await a.identity.get(octokit)).name, title, automation.name);
  a.deps.log(`automation ${automation.name} fires (due ${f.due}) on #${issue} for @${owner.login}`);
  const delivery: Delivery = {
    id: `schedule-${f.name}-${f.due}`,
    event: "schedule",
    repo,
    sender: owner,
    intent: { kind: "issue_event", event: "issue_opened", label: null, thread: { number: issue, isPullRequest: false, title, body: "" }, at: f.due },
    source: `schedule:${automation.name}@${f.due}`,
  };
  const run = { delivery, declared, automation, task: trigger.task };
  a.deps.queue.enqueue({ key: issueKey(repo, issue), name: `schedule ${automation.name} #${issue}`, run: () => startRun(a, f, run) });
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
