import type { Ledger } from "../../store/ledger.js";
import { withToken, type AppContext, type SessionWork } from "../deps.js";
import { freshGitToken } from "../outbound/git-remote.js";
import type { Repo } from "../inbound/intent.js";
import { Outbound } from "../outbound/outbound.js";

/**
 * GitHub work for a session that no webhook brought (a resume at boot, a cancellation by an
 * uninstall): the repository where it is now (renamed or transferred since, the index knows), its
 * installation's client, a fresh git token. Asking GitHub for the repository also proves the
 * installation still sees it, under the id the session recorded; when it does not, this throws and
 * nothing is posted.
 */
export async function sessionWork(a: AppContext, ledger: Ledger, deliveryId: string, event: string): Promise<SessionWork> {
  const src = ledger.state.task.source;
  if (src.kind !== "github" || src.installationId === undefined) throw new Error(`session ${ledger.sessionId} has no GitHub installation on record`);
  const at = await a.index.whereIs(src);
  const octokit = await a.installation(at.installationId);
  // The default branch is not in the ledger.
  const { data } = await octokit.rest.repos.get({ owner: at.owner, repo: at.repo });
  // A name answers for whichever repository holds it now: the session's own, or none of its work.
  if (src.repoId !== undefined && data.id !== src.repoId)
    throw new Error(`session ${ledger.sessionId}: ${at.owner}/${at.repo} is now repository ${data.id}, not the session's ${src.repoId}`);
  const repo: Repo = { id: data.id, owner: at.owner, repo: at.repo, defaultBranch: data.default_branch, installationId: at.installationId };
  const outbound = new Outbound(octokit, repo, { secrets: a.deps.secrets, htmlBase: a.deps.gitBase });
  const base = { deps: a.deps, delivery: { id: deliveryId, event, repo }, octokit, appOctokit: a.appOctokit, index: a.index, identity: a.identity, outbound };
  return withToken(base, await freshGitToken(await a.appOctokit(), repo));
}
