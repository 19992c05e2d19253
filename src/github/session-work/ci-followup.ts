import { triggerOf } from "../../config/automations.js";
import { readEffect, writeEffect } from "../../store/effect-codec.js";
import { effect } from "../../store/effects.js";
import type { Ledger } from "../../store/ledger.js";
import type { JobContext } from "../deps.js";
import type { Intent } from "../inbound/intent.js";
import { storedPullRequest } from "../outbound/pull-request.js";
import { postComment } from "../outbound/replies.js";
import { automationSource, automationsOf, readAutomations } from "./automation-config.js";
import { failedJobs, failureText } from "./ci-logs.js";
import { startSession } from "./start.js";

/**
 * CI failed on the PR a finished session published: a `ci_failed` automation of the default branch
 * starts one follow-up on its branch, with the failing jobs and their log tails as the task, at most
 * `max_attempts` times per PR (counted in the store); then one comment says it stopped. Only on the
 * PR's current head, and only when that commit is Patchgate's: a run a person's push triggered is
 * theirs to read.
 */
type CiFailure = Extract<Intent, { kind: "ci_failed" }>;

export async function ciFollowUp(jc: JobContext, ledger: Ledger, failure: CiFailure, issue: number): Promise<void> {
  const { repo } = jc.delivery;
  const pull = failure.thread.number;
  const s = ledger.state;
  const log = (why: string) => jc.deps.log(`CI failure on #${pull} at ${failure.headSha.slice(0, 7)}: ${why}`);
  if ((await storedPullRequest(jc.deps.store, ledger.sessionId))?.number !== pull) return log("not the pull request of the issue's session");
  if (!s.lease?.ours.includes(failure.headSha)) return log("the commit is not one Patchgate pushed");
  const { data: pr } = await jc.octokit.rest.pulls.get({ owner: repo.owner, repo: repo.repo, pull_number: pull });
  if (pr.head.sha !== failure.headSha) return log(`the pull request's head is ${pr.head.sha.slice(0, 7)} now`);
  const declared = await readAutomations(jc.octokit, repo);
  const automation = declared ? automationsOf(declared).find((a) => triggerOf(a).kind === "ci_failed") : undefined;
  if (!declared || !automation) return log("no ci_failed automation is declared");
  const t = triggerOf(automation);
  const max = t.kind === "ci_failed" ? t.maxAttempts : 0;
  const counter = effect.ciAttempts({ installationId: repo.installationId, repoId: repo.id }, pull);
  const used = (await readEffect(jc.deps.store, counter)) ?? 0;
  if (used >= max) {
    log(`${used} follow-up(s) already; max_attempts is ${max}`);
    // One comment per PR however often CI fails again: it is the last session's, posted once and kept.
    await postComment(
      jc,
      pull,
      ledger.sessionId,
      "ci-attempts",
      `CI still fails on this pull request after ${used} follow-up session(s) started by automation \`${automation.name}\` (\`max_attempts: ${max}\`), so Patchgate stops here. \`/agent <instruction>\` on this pull request starts another.`,
    );
    return;
  }
  const jobs = await failedJobs(jc.octokit, repo, failure, [...jc.deps.secrets, jc.token]);
  // Counted before the start: a crash after it must not give the PR one attempt more.
  await writeEffect(jc.deps.store, counter, used + 1);
  log(`follow-up ${used + 1} of ${max} by automation ${automation.name} (${jobs.length} failing job(s))`);
  const requester = { login: s.task.source.requester ?? jc.delivery.sender.login, id: s.task.source.requesterId ?? jc.delivery.sender.id, type: "User" };
  await startSession({ ...jc, delivery: { ...jc.delivery, sender: requester }, readConfig: declared.readConfig }, ledger, {
    issue,
    title: `Follow-up on #${pull}: CI failed`,
    body: failureText(pull, failure.headSha, jobs),
    instruction: null,
    followUp: true,
    automation: automationSource(automation, declared),
  });
}
