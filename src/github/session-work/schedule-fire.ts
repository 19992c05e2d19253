import { triggerOf } from "../../config/automations.js";
import { Ledger } from "../../store/ledger.js";
import { TERMINAL_PHASES } from "../../session/types.js";
import { withToken, type AppContext, type JobContext } from "../deps.js";
import { issueKey, type Delivery, type Repo, type Sender } from "../inbound/intent.js";
import { checkPermission } from "../inbound/permission.js";
import { freshGitToken } from "../outbound/git-remote.js";
import { Outbound } from "../outbound/outbound.js";
import { automationSource, automationsOf, readAutomations, type DeclaredAutomations } from "./automation-config.js";
import { scheduleIssue } from "./schedule-issue.js";
import { rememberSchedules, type ScheduledRepo } from "./schedule-registry.js";
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
  const octokit = await a.installation(f.repo.installationId);
  const { data } = await octokit.rest.repos.get({ owner: f.repo.owner, repo: f.repo.repo });
  if (data.id !== f.repo.repoId) return a.deps.log(`schedule ${f.name}: ${f.repo.owner}/${f.repo.repo} is now another repository; not fired`);
  const repo: Repo = { id: data.id, owner: f.repo.owner, repo: f.repo.repo, defaultBranch: data.default_branch, installationId: f.repo.installationId };
  const declared = await readAutomations(octokit, repo);
  const automations = declared ? automationsOf(declared) : [];
  await rememberSchedules(a.deps.store, repo, automations, new Date(f.due));
  const automation = automations.find((x) => x.name === f.name);
  const trigger = automation ? triggerOf(automation) : null;
  if (!declared || !automation || trigger?.kind !== "schedule") return a.deps.log(`schedule ${f.name}: no longer declared; not fired`);
  const { data: user } = await octokit.rest.users.getByUsername({ username: trigger.owner });
  const owner: Sender = { login: user.login, id: user.id, type: user.type };
  const access = owner.type === "User" ? await checkPermission(octokit, repo, owner) : { allowed: false, role: owner.type };
  if (!access.allowed) return a.deps.log(`schedule ${f.name}: @${owner.login} has no write access (${access.role}); not fired`);
  const bot = (await a.identity.get(octokit)).name;
  const issue = await scheduleIssue(octokit, repo, bot, `Patchgate: ${automation.name}`, automation.name);
  a.deps.log(`automation ${automation.name} fires (due ${f.due}) on #${issue} for @${owner.login}`);
  const delivery: Delivery = {
    id: `schedule-${f.name}-${f.due}`,
    event: "schedule",
    repo,
    sender: owner,
    intent: {
      kind: "issue_event",
      event: "issue_opened",
      label: null,
      thread: { number: issue, isPullRequest: false, title: `Patchgate: ${automation.name}`, body: "" },
      at: f.due,
    },
    source: `schedule:${automation.name}@${f.due}`,
  };
  a.deps.queue.enqueue({ key: issueKey(repo, issue), name: `schedule ${automation.name} #${issue}`, run: () => startRun(a, delivery, declared, trigger.task) });
}

async function startRun(a: AppContext, delivery: Delivery, declared: DeclaredAutomations, task: string): Promise<void> {
  const { repo, intent } = delivery;
  if (intent.kind !== "issue_event") return;
  const id = await a.index.sessionOfIssue(repo, intent.thread.number);
  const prior = id ? await Ledger.open(a.deps.store, id) : null;
  if (prior && prior.state.task.source.trigger === delivery.source) return a.deps.log(`${delivery.source} already started session ${prior.sessionId}`);
  // One run at a time: a run still working when the next comes due is left to finish.
  if (prior && !TERMINAL_PHASES.includes(prior.state.phase))
    return a.deps.log(`${delivery.source}: the previous run is still ${prior.state.phase} on #${intent.thread.number}; not fired`);
  const octokit = await a.installation(repo.installationId);
  const outbound = new Outbound(octokit, repo, { secrets: a.deps.secrets, htmlBase: a.deps.gitBase });
  const base = { deps: a.deps, delivery, octokit, appOctokit: a.appOctokit, index: a.index, identity: a.identity, outbound, readConfig: declared.readConfig };
  const jc: JobContext = withToken(base, await freshGitToken(await a.appOctokit(), repo));
  const automation = automationsOf(declared).find((x) => `schedule:${x.name}@${intent.at}` === delivery.source);
  if (!automation) return;
  await startSession(jc, prior, {
    issue: intent.thread.number,
    title: intent.thread.title,
    body: "",
    instruction: task,
    followUp: false,
    automation: automationSource(automation, declared),
  });
}
