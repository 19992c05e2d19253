import { createSession } from "../../agent/session-service.js";
import type { AutomationSource, ReviewComment, TaskInput } from "../../session/types.js";
import type { Ledger } from "../../store/ledger.js";
import type { BranchLease } from "../../session/state.js";
import { sanitizeUntrusted } from "../../safety/sanitize.js";
import type { JobContext } from "../deps.js";
import { issueKey } from "../inbound/intent.js";
import { branchFor } from "../outbound/publish.js";
import { configErrorText, loadRepoConfig } from "./repo-config.js";
import { answer } from "../outbound/replies.js";
import { continueStart, recordStartRequest } from "./start-workspace.js";
import { reviewCommentsText } from "../outbound/review-comments-text.js";
import { checkDisk, diskLowText } from "../../workspace/disk-guard.js";
import { startRefusal } from "./budget-gate.js";
import { rememberSchedules } from "./schedule-registry.js";
import { triggerKind } from "../metrics/trigger-kind.js";

/**
 * A new session for an issue: 👀, the repo config (invalid → a comment, no session), the session
 * with the issue's sanitised text, the clone, the check run, then the first resume. `followUp`
 * continues on the branch of a finished session (a `/agent <instruction>` on its PR).
 */
export interface StartRequest {
  issue: number;
  title: string;
  body: string;
  /** The `/agent <task>` text, when the command named one. */
  instruction: string | null;
  followUp: boolean;
  /** A follow-up started by a review: its line comments, already sanitised. */
  reviewComments?: ReviewComment[];
  /** The automation that starts it, when no `/agent` did. */
  automation?: AutomationSource;
}

/**
 * `prior`: the issue's last session, ended (./route.ts refuses a start while one works): its branch
 * stays the issue's.
 */
export async function startSession(jc: JobContext, prior: Ledger | null, req: StartRequest): Promise<void> {
  const { repo, sender, intent } = jc.delivery;
  const priorLease: BranchLease | null = prior?.state.lease ?? null;
  // Refused before anything is made (no 👀, no session, no clone): running sessions are not touched.
  const disk = jc.deps.diskGuard
    ? await checkDisk(jc.deps.workspacesDir, jc.deps.diskGuard.minFreeBytes, jc.deps.diskGuard.freeBytes, jc.deps.log)
    : { ok: true as const };
  if (!disk.ok) {
    jc.deps.log(`session for #${req.issue} refused: ${disk.freeBytes} bytes free, ${disk.minBytes} kept free`);
    await answer(jc, req.issue, null, "disk", diskLowText(disk));
    return;
  }
  await react(jc);
  const config = await loadRepoConfig(jc.readConfig);
  if (!config.ok) {
    await answer(jc, req.issue, null, "config", configErrorText(config));
    return;
  }
  // The schedules the default branch declares fire from now on, also after a restart.
  await rememberSchedules(jc.deps.store, repo, config.config.automations ?? [], jc.deps.schedules?.now() ?? new Date());
  // After the config: a repository's limits may lower the operator's ceilings. Nothing is made yet.
  const overBudget = await startRefusal(jc.deps, { installationId: repo.installationId, repoId: repo.id }, sender, config.config.limits);
  if (overBudget) {
    jc.deps.log(`session for #${req.issue} refused: the ${overBudget.scope} budget is reached`);
    jc.deps.metrics?.budgetRefused(overBudget.scope);
    await answer(jc, req.issue, null, "budget", overBudget.text);
    return;
  }
  const task: TaskInput = {
    title: sanitizeUntrusted(req.title, { maxChars: 300, markdown: false }),
    body: [
      req.instruction ? `Instruction from @${sender.login}: ${sanitizeUntrusted(req.instruction)}` : "",
      sanitizeUntrusted(req.body),
      req.reviewComments?.length ? reviewCommentsText(req.reviewComments) : "",
    ]
      .filter(Boolean)
      .join("\n\n"),
    ...(req.reviewComments?.length ? { reviewComments: req.reviewComments } : {}),
    source: {
      kind: "github",
      repo: `${repo.owner}/${repo.repo}`,
      issueNumber: req.issue,
      requester: sender.login,
      requesterId: sender.id,
      installationId: repo.installationId,
      repoId: repo.id,
      trigger: jc.delivery.source,
      ...(req.automation ? { automation: req.automation } : {}),
    },
  };
  const c = config.config;
  const ledger = await createSession(jc.deps.store, {
    task,
    model: jc.deps.model,
    settings: {
      ...jc.deps.settings,
      ...(c.test ? { testCommand: c.test, testCommandSource: ".github/patchgate.yml" } : {}),
      limits: { maxSteps: c.limits.max_steps, maxTokens: c.limits.max_tokens, maxCostUsd: c.limits.max_cost_usd },
    },
    repoConfig: c,
  });
  // The issue's branch stays the session's across sessions, with the commits Patchgate pushed to it:
  // a later session may replace those, and only those (publish/branch-lease.ts). A follow-up starts
  // from the branch's head as it is now; another session from the default branch, expecting the
  // branch where the last session left it.
  const branch = priorLease?.branch ?? branchFor(req.issue);
  await recordStartRequest(jc.deps.store, ledger.sessionId, { branch, followUp: req.followUp, head: priorLease?.head ?? null, ours: priorLease?.ours ?? [] });
  // The key comes last: a session the issue can find has everything its start needs on record (one
  // that died before it stays unkeyed, and the redelivered trigger starts a new one).
  await jc.deps.store.setKey(ledger.sessionId, issueKey(repo, req.issue));
  jc.deps.log(`session ${ledger.sessionId} created for #${req.issue} by @${sender.login} (${intent.kind})`);
  jc.deps.metrics?.sessionStarted(triggerKind(jc.delivery.source));
  await continueStart(jc, ledger, "start");
}

/** 👀 on the comment that asked, or on the issue when the ask was the issue itself or a label. */
async function react(jc: JobContext): Promise<void> {
  const { repo, intent } = jc.delivery;
  const base = { owner: repo.owner, repo: repo.repo, content: "eyes" as const };
  if (intent.kind === "command") await jc.octokit.rest.reactions.createForIssueComment({ ...base, comment_id: intent.commentId });
  else if (intent.kind !== "button") await jc.octokit.rest.reactions.createForIssue({ ...base, issue_number: intent.thread.number });
  jc.deps.log("👀");
}
