import type { Phase } from "../session/types.js";
import type { SessionSummary } from "../store/types.js";
import { Ledger } from "../store/ledger.js";
import { withToken, type PatchgateDeps, type SessionWork } from "./deps.js";
import { drive } from "./drive.js";
import { freshGitToken } from "./git-remote.js";
import type { AppIdentity } from "./identity.js";
import type { Repo } from "./intent.js";
import type { Octokit } from "./octokit.js";
import { Outbound } from "./outbound.js";
import { answer } from "./replies.js";
import type { SessionIndex } from "./session-index.js";

/**
 * Sessions that were mid-run when the process died resume when the app starts. A parked session
 * waits for a human, whose next webhook wakes it; a session that was planning, executing or
 * publishing waits for no one, so nothing else would. Each becomes a job in its issue's lane (where
 * that issue's webhook work runs too, so the two never overlap) and runs the same `drive` a webhook
 * would, with installation tokens minted when the job runs, not at boot.
 */
export const INTERRUPTED_PHASES: readonly Phase[] = ["planning", "executing", "publishing"];

export interface BootAccess {
  deps: PatchgateDeps;
  index: SessionIndex;
  identity: AppIdentity;
  /** The app itself (JWT), for the git token. */
  appOctokit: () => Promise<Octokit>;
  /** An installation's client (Probot's `app.auth(id)`). */
  installation: (installationId: number) => Promise<Octokit>;
}

/** Enqueues one resume per interrupted session; returns how many. */
export async function resumeInterrupted(b: BootAccess): Promise<number> {
  // Only GitHub sessions have an issue key; a local CLI run sharing the store is not ours to resume.
  const sessions = (await b.deps.store.list()).filter((s) => INTERRUPTED_PHASES.includes(s.phase) && s.key !== null);
  // Distinguishes this boot's one-off answers from another boot's (their markers carry the id).
  const boot = Date.now().toString(36);
  for (const s of sessions) {
    b.deps.log(`session ${s.id} was ${s.phase} when the app stopped → queued to resume`);
    b.deps.queue.enqueue({ key: s.key!, name: `boot resume ${s.id}`, run: () => resumeOne(b, s, boot) });
  }
  return sessions.length;
}

async function resumeOne(b: BootAccess, s: SessionSummary, boot: string): Promise<void> {
  const ledger = await Ledger.open(b.deps.store, s.id);
  // A job ahead of this one in the lane (a webhook that arrived first) may have moved it on.
  if (!INTERRUPTED_PHASES.includes(ledger.state.phase)) return;
  const src = ledger.state.task.source;
  if (src.kind !== "github" || src.installationId === undefined || src.issueNumber === undefined) {
    b.deps.log(`session ${s.id} has no GitHub installation on record; not resumed`);
    return;
  }
  const [owner, name] = src.repo.split("/");
  const octokit = await b.installation(src.installationId);
  // The default branch is not in the ledger; asking also proves the installation still sees the repo.
  const { data } = await octokit.rest.repos.get({ owner, repo: name });
  const repo: Repo = { id: data.id, owner, repo: name, defaultBranch: data.default_branch, installationId: src.installationId };
  const outbound = new Outbound(octokit, repo, { secrets: b.deps.secrets, htmlBase: b.deps.gitBase });
  const base = { deps: b.deps, delivery: { id: `boot-${boot}`, event: "boot", repo }, octokit, appOctokit: b.appOctokit, index: b.index, identity: b.identity, outbound };
  const work: SessionWork = withToken(base, await freshGitToken(await b.appOctokit(), repo));
  try {
    await drive(work, ledger, "app restarted");
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const text = `Patchgate resumed this session after a restart and hit an error: ${why.split("\n")[0]}\n\n\`/agent retry\` continues from the last checkpoint.`;
    await answer(work, src.issueNumber, s.id, "error", text).catch(() => {});
    throw e;
  }
}
