import { join } from "node:path";
import { tenantOf } from "../../session/tenant.js";
import type { MirrorUse } from "../../workspace/mirror-settings.js";
import { reopenWorkspace } from "../../agent/session-service.js";
import { resumeSession } from "../../agent/run-session.js";
import type { Ledger } from "../../store/ledger.js";
import type { Sandbox } from "../../sandbox/types.js";
import { CheckRunPublisher } from "../outbound/check-run.js";
import type { PushableWorkspace, SessionWork } from "../deps.js";
import { authFor, remoteUrl } from "../outbound/git-remote.js";
import { issueKey } from "../inbound/intent.js";
import { publishPlan, publishResult } from "../outbound/publish.js";
import { sessionRepoConfig } from "./repo-config.js";
import { keepBlockedWork } from "./blocked-work.js";
import { publishableOrFail } from "../../publish/publish-guard.js";
import { batchComment, endedComment } from "../outbound/render.js";
import { integrityComment } from "../outbound/integrity-comment.js";
import { grantComment } from "../outbound/grant-comment.js";
import { postComment, postEndComment } from "../outbound/replies.js";
import { batchRequest, grantRequest, integrityRequest } from "../outbound/request-comments.js";
import { storedPullRequest } from "../outbound/pull-request.js";
import { postQuestion } from "./questions.js";
import { approvePlanByAutomation } from "./automation-approval.js";
import { spendGate } from "./budget-gate.js";
import { postBudgetPark } from "./budget-park-comment.js";
import { ABANDON_AFTER_ABORT_MS, settleOrAbandon } from "../../queue/abandon.js";

/**
 * One resume of a session and what GitHub sees of it. The loop runs until it parks or ends; then the
 * outcome is published. Work is registered for `/agent stop` under the session's issue key.
 */
export function checkRunFor(work: SessionWork, ledger: Ledger): CheckRunPublisher {
  const secrets = [...work.deps.secrets, work.token];
  const issue = ledger.state.task.source.issueNumber ?? 0;
  // Every run that becomes current may carry the Approve plan button, which must find the session.
  const onCurrent = (id: number) => work.index.linkCheckRun(work.delivery.repo, id, issue);
  return new CheckRunPublisher(work.outbound, work.deps.store, ledger, {
    secrets,
    throttleMs: work.deps.checkRunThrottleMs,
    keysUrl: work.deps.receipts?.keysUrl ?? undefined,
    onCurrent,
  });
}

/** The sandbox with the job's installation token for the operator's GitHub Packages registries (it stays on the host). */
function withInstallationToken(sandbox: Sandbox | null, token: string): Sandbox | null {
  return sandbox?.withInstallationToken?.(token) ?? sandbox;
}

export function workspaceDir(work: SessionWork, sessionId: string): string {
  return join(work.deps.workspacesDir, sessionId);
}

/**
 * The mirror a session's clone may take objects from: its tenant's, as the ledger records it and only
 * when that is the repository the job works on; otherwise none (a full clone).
 */
export function mirrorFor(work: SessionWork, ledger: Ledger): MirrorUse | undefined {
  const tenant = tenantOf(ledger.state.task.source);
  const { repo } = work.delivery;
  if (!work.deps.mirrors || tenant === null || tenant.installationId !== repo.installationId || tenant.repoId !== repo.id) return undefined;
  return { settings: work.deps.mirrors, tenant };
}

export async function openSessionWorkspace(work: SessionWork, ledger: Ledger, ref?: string): Promise<PushableWorkspace> {
  const ws = await reopenWorkspace(ledger, {
    source: remoteUrl(work.deps.gitBase, work.delivery.repo),
    dir: workspaceDir(work, ledger.sessionId),
    auth: authFor(work.token),
    ref,
    mirror: mirrorFor(work, ledger),
  });
  return ws as PushableWorkspace;
}

export async function drive(work: SessionWork, ledger: Ledger, trigger: string, ws?: PushableWorkspace, checkRun?: CheckRunPublisher): Promise<void> {
  const issue = ledger.state.task.source.issueNumber ?? 0;
  const { signal, release } = work.deps.aborts.begin(issueKey(work.delivery.repo, issue));
  try {
    const late = (outcome: unknown) => work.deps.log(`abandoned job ended late: ${outcome instanceof Error ? outcome.message : "ok"}`);
    const grace = work.deps.abandonAfterAbortMs ?? ABANDON_AFTER_ABORT_MS;
    const done = await settleOrAbandon(driveOnce(work, ledger, trigger, signal, ws, checkRun), signal, grace, late);
    if (done === "abandoned")
      work.deps.log(`a job for #${issue} did not end within ${grace} ms of its abort; its lane goes on without it`, "warn", { session: ledger.sessionId });
  } finally {
    release();
  }
}

/** A session rebuilt on someone's commits runs again in the same job; this bounds how often. */
const MAX_REBUILDS_PER_JOB = 3;

async function driveOnce(
  work: SessionWork,
  ledger: Ledger,
  trigger: string,
  signal: AbortSignal,
  ws?: PushableWorkspace,
  checkRun?: CheckRunPublisher,
): Promise<void> {
  const issue = ledger.state.task.source.issueNumber ?? 0;
  const run = checkRun ?? checkRunFor(work, ledger);
  ledger.onEvent(run.onEvent);
  // Not bound to the signal: resumeSession binds its own calls, and publishing is never cut in half
  // by a stop (its git calls have their own time limits).
  let workspace = ws ?? (await openSessionWorkspace(work, ledger));
  const repoConfig = sessionRepoConfig(ledger.state);
  const mcp = work.deps.mcp ? { config: work.deps.mcp, secrets: work.deps.secrets } : undefined;
  let why = trigger;
  for (let round = 0; ; round++) {
    work.deps.log(`resume (${why})`);
    why = "rebuilt on the branch's new commits";
    const outcome = await resumeSession(ledger, {
      llm: work.deps.llm(),
      compaction: work.deps.compaction,
      keepBlockedWork: true,
      sandbox: withInstallationToken(await work.deps.sandbox(repoConfig), work.token),
      workspace,
      repoConfig,
      signal,
      trigger,
      mcp,
      secrets: [...work.deps.secrets, work.token],
      spendGate: spendGate(work.deps, ledger.state, repoConfig.limits),
      ...work.deps.sandboxExtras,
    });
    work.deps.log(`session ${outcome.kind === "parked" ? outcome.phase : outcome.kind === "ended" ? outcome.phase : "ready to publish"}`);
    if (outcome.kind === "parked" && outcome.phase === "awaiting_answer") {
      await postQuestion(work, ledger, repoConfig.limits.max_questions);
      await run.update();
    } else if (outcome.kind === "parked" && outcome.phase === "awaiting_plan_approval") {
      if ((await publishPlan(work, ledger, workspace, run)) === "ended") await finishEnded(work, ledger, run);
      else if (await approvePlanByAutomation(work, ledger)) {
        why = "plan approved by its automation";
        continue;
      }
    } else if (outcome.kind === "keep_blocked_work") {
      await keepBlockedWork(work, ledger, workspace, run, repoConfig);
      await finishEnded(work, ledger, run);
    } else if (outcome.kind === "parked" && outcome.phase === "awaiting_integrity_approval") await postIntegrity(work, ledger, issue, run);
    else if (outcome.kind === "parked" && outcome.phase === "awaiting_grant") await postGrant(work, ledger, issue, run);
    else if (outcome.kind === "parked" && outcome.phase === "awaiting_budget") {
      await postBudgetPark(work, ledger);
      await run.update();
    } else if (outcome.kind === "parked") await postBatch(work, ledger, issue, run);
    else if (outcome.kind === "ready_to_publish") {
      if (!(await publishableOrFail(ledger, workspace))) return finishEnded(work, ledger, run);
      const published = await publishResult(work, ledger, workspace, run);
      if (published === "ended") await finishEnded(work, ledger, run);
      if (published === "rebuilt" && round < MAX_REBUILDS_PER_JOB) {
        workspace = await openSessionWorkspace(work, ledger);
        continue;
      }
      if (published === "rebuilt") await run.update();
    } else await finishEnded(work, ledger, run);
    return;
  }
}

async function postBatch(work: SessionWork, ledger: Ledger, issue: number, run: CheckRunPublisher): Promise<void> {
  const s = ledger.state;
  // The batch is reviewed beside the plan, on the PR; before a PR exists, on the issue.
  const pr = await storedPullRequest(work.deps.store, ledger.sessionId);
  await postComment(work, pr?.number ?? issue, ledger.sessionId, batchRequest(s.pending?.digest ?? ""), batchComment(s));
  await run.update();
}

/**
 * The test_integrity request, asked where the batch would be: its own comment, one per digest, so a
 * resume or a redelivery updates it and a new set of findings asks anew.
 */
async function postIntegrity(work: SessionWork, ledger: Ledger, issue: number, run: CheckRunPublisher): Promise<void> {
  const pr = await storedPullRequest(work.deps.store, ledger.sessionId);
  await postComment(work, pr?.number ?? issue, ledger.sessionId, integrityRequest(ledger.state.integrity?.digest ?? ""), integrityComment(ledger.state));
  await run.update();
}

/** A grant request, asked where a batch would be, in its own comment (one per digest). */
async function postGrant(work: SessionWork, ledger: Ledger, issue: number, run: CheckRunPublisher): Promise<void> {
  const pr = await storedPullRequest(work.deps.store, ledger.sessionId);
  await postComment(work, pr?.number ?? issue, ledger.sessionId, grantRequest(ledger.state.grantRequest?.digest ?? ""), grantComment(ledger.state));
  await run.update();
}

/** A session that ended without publishing: the check run says how, and the issue hears it once. */
export async function finishEnded(work: SessionWork, ledger: Ledger, run: CheckRunPublisher): Promise<void> {
  const s = ledger.state;
  if (s.phase === "done") return;
  await run.complete();
  await postEndComment(work, ledger, "ended", endedComment(s));
}
