import type { BranchRemote } from "../../publish/branch-lease.js";
import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import { HandledError } from "../../errors/index.js";

/**
 * The lease's remote (publish/branch-lease.ts) over GitHub's refs API: the head read with `GET git/ref`, a
 * new branch made with `POST git/refs` (refused when it exists), and a branch moved with `PATCH
 * git/refs … force: false`, which GitHub refuses unless the move is a fast-forward from where the
 * branch is now — so a commit someone pushed meanwhile is never dropped. History questions are
 * answered by the clone (`history`, the git remote, which fetches what it is asked about); a commit
 * made through the API is looked up by its local twin (same parent, same tree) until fetched.
 *
 * Moving a branch over commits (even Patchgate's own) needs `force: true`, which the API offers with
 * no expected value: that is no lease, so this remote refuses it (ForceNeeded) and the caller pushes
 * with git's `--force-with-lease` instead.
 */
export class ForceNeeded extends HandledError {
  readonly kind = "force_needed";
}

const status = (e: unknown): number => (e as { status?: number }).status ?? 0;

export class ApiBranchRemote implements BranchRemote {
  constructor(
    private readonly octokit: Octokit,
    private readonly repo: Pick<Repo, "owner" | "repo">,
    private readonly history: BranchRemote,
    private readonly twins: ReadonlyMap<string, string>,
  ) {}

  private local(commit: string): string {
    return this.twins.get(commit) ?? commit;
  }

  async head(branch: string): Promise<string | null> {
    try {
      const { data } = await this.octokit.rest.git.getRef({ owner: this.repo.owner, repo: this.repo.repo, ref: `heads/${branch}` });
      // The history of what is there now, into the clone's private ref, for dropped() and contains().
      await this.history.head(branch);
      return data.object.sha;
    } catch (e) {
      if (status(e) === 404) return null;
      throw e;
    }
  }

  async update(branch: string, commit: string, expected: string | null): Promise<"updated" | "stale"> {
    const where = { owner: this.repo.owner, repo: this.repo.repo };
    try {
      if (expected === null) {
        await this.octokit.rest.git.createRef({ ...where, ref: `refs/heads/${branch}`, sha: commit });
        return "updated";
      }
      if (!(await this.contains(commit, expected)))
        throw new ForceNeeded(`moving ${branch} from ${expected.slice(0, 7)} to ${commit.slice(0, 7)} is not a fast-forward`);
      await this.octokit.rest.git.updateRef({ ...where, ref: `heads/${branch}`, sha: commit, force: false });
      return "updated";
    } catch (e) {
      // 422: the branch exists already, or moved so that this is no longer a fast-forward.
      if (status(e) === 422) return "stale";
      throw e;
    }
  }

  dropped(head: string, commit: string): Promise<string[]> {
    return this.history.dropped(head, this.local(commit));
  }

  contains(commit: string, ancestor: string): Promise<boolean> {
    return this.history.contains(this.local(commit), this.local(ancestor));
  }
}
