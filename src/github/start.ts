import { createSession, prepareWorkspace } from "../agent/session-service.js";
import { TERMINAL_PHASES, type TaskInput } from "../session/types.js";
import { Ledger } from "../store/ledger.js";
import type { BranchLease } from "../session/state.js";
import { sanitizeUntrusted } from "../safety/sanitize.js";
import type { JobContext, PushableWorkspace } from "./deps.js";
import { checkRunFor, drive, workspaceDir } from "./drive.js";
import { authFor, remoteUrl } from "./git-remote.js";
import { issueKey } from "./intent.js";
import { branchFor } from "./publish.js";
import { configErrorText, loadRepoConfig } from "./repo-config.js";
import { answer } from "./replies.js";

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
}

export async function startSession(jc: JobContext, req: StartRequest): Promise<void> {
  const { repo, sender, intent } = jc.delivery;
  const existing = await jc.index.sessionOfIssue(repo, req.issue);
  let priorLease: BranchLease | null = null;
  if (existing) {
    const prior = await Ledger.open(jc.deps.store, existing);
    priorLease = prior.state.lease;
    if (!TERMINAL_PHASES.includes(prior.state.phase)) {
      await answer(jc, req.issue, existing, "busy", `A Patchgate session is already working on this (phase \`${prior.state.phase}\`). \`/agent status\` shows where it stands; \`/agent stop\` cancels it.`);
      return;
    }
  }
  await react(jc);
  const config = await loadRepoConfig(jc.readConfig);
  if (!config.ok) {
    await answer(jc, req.issue, null, "config", configErrorText(config));
    return;
  }
  const task: TaskInput = {
    title: sanitizeUntrusted(req.title, { maxChars: 300, markdown: false }),
    body: [req.instruction ? `Instruction from @${sender.login}: ${sanitizeUntrusted(req.instruction)}` : "", sanitizeUntrusted(req.body)].filter(Boolean).join("\n\n"),
    source: { kind: "github", repo: `${repo.owner}/${repo.repo}`, issueNumber: req.issue, requester: sender.login, installationId: repo.installationId, repoId: repo.id, trigger: jc.delivery.source },
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
  });
  await jc.deps.store.setKey(ledger.sessionId, issueKey(repo, req.issue));
  await jc.deps.store.putEffect(ledger.sessionId, "requester", JSON.stringify({ login: sender.login, id: sender.id }));
  await jc.deps.store.putEffect(ledger.sessionId, "repo_config", JSON.stringify(c));
  jc.deps.log(`session ${ledger.sessionId} created for #${req.issue} by @${sender.login} (${intent.kind})`);
  // The issue's branch stays the session's across sessions, with the commits Patchgate pushed to it:
  // a later session may replace those, and only those (github/branch-lease.ts).
  const branch = priorLease?.branch ?? branchFor(req.issue);
  const ws = await prepareWorkspace(ledger, {
    source: remoteUrl(jc.deps.gitBase, repo),
    dir: workspaceDir(jc, ledger.sessionId),
    auth: authFor(jc.token),
    ref: req.followUp ? branch : undefined,
  });
  jc.deps.log(`cloned at ${ws.baseCommit.slice(0, 7)}`);
  // A follow-up starts from the branch's head as it is now; another session from the default branch,
  // expecting the branch where the last session left it.
  await ledger.append({ type: "branch_claimed", branch, head: req.followUp ? ws.baseCommit : (priorLease?.head ?? null), ours: priorLease?.ours ?? [] });
  const checkRun = checkRunFor(jc, ledger);
  // Until the plan is pushed there is no PR head: the run starts on the commit the session starts from.
  const { id } = await checkRun.moveTo(ws.baseCommit);
  jc.deps.log(`check run ${id} in progress`);
  await drive(jc, ledger, "start", ws as PushableWorkspace, checkRun);
}

/** 👀 on the comment that asked, or on the issue when the ask was the issue itself or a label. */
async function react(jc: JobContext): Promise<void> {
  const { repo, intent } = jc.delivery;
  const base = { owner: repo.owner, repo: repo.repo, content: "eyes" as const };
  if (intent.kind === "command") await jc.octokit.rest.reactions.createForIssueComment({ ...base, comment_id: intent.commentId });
  else if (intent.kind !== "button") await jc.octokit.rest.reactions.createForIssue({ ...base, issue_number: intent.thread.number });
  jc.deps.log("👀");
}
