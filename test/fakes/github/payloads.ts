import { createRequire } from "node:module";
import type { GitHubWorld } from "./github-state.js";

/**
 * Webhook payloads built from GitHub's real examples (@octokit/webhooks-examples), with the fields
 * Patchgate reads set to the fake world's repository, users and objects. Most examples lack
 * `installation`, which every App delivery has; it is added here.
 */
interface ExampleGroup {
  name: string;
  examples: Record<string, any>[];
}

const require = createRequire(import.meta.url);
let examples: ExampleGroup[] | null = null;

function example(event: string, action: string): Record<string, any> {
  // 4 MB of JSON: loaded on first use only.
  examples ??= require("@octokit/webhooks-examples") as ExampleGroup[];
  const found = examples.find((g) => g.name === event)?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no example for ${event}.${action}`);
  return structuredClone(found);
}

/** A line comment as a reviewer writes it on the diff. */
export interface LineComment {
  path: string;
  line: number;
  startLine?: number;
  hunk: string;
  body: string;
}

export class Payloads {
  constructor(
    private readonly w: GitHubWorld,
    private readonly installationId = 77,
  ) {}

  private base(event: string, action: string, sender: string): Record<string, any> {
    const p = example(event, action);
    p.repository = {
      ...p.repository,
      id: this.w.repoId,
      name: this.w.repo,
      full_name: `${this.w.owner}/${this.w.repo}`,
      default_branch: this.w.defaultBranch,
      owner: { ...p.repository.owner, login: this.w.owner },
    };
    p.installation = { id: this.installationId, node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${this.installationId}` };
    p.sender = { ...p.sender, ...this.w.user(sender) };
    return p;
  }

  private issue(p: Record<string, any>, number: number, title: string, body: string, pr: boolean, by?: string): Record<string, any> {
    this.w.issueNumbers.add(number);
    const known = this.w.issues.get(number);
    const at = known?.created_at ?? new Date().toISOString();
    const id = known?.id ?? this.w.id();
    if (!known && by) this.w.issues.set(number, { id, number, title, body, user: this.w.user(by), created_at: at, updated_at: at });
    const issue = { ...p.issue, id, number, title, body, state: "open", created_at: at, updated_at: at };
    if (pr) issue.pull_request = { url: `${this.w.htmlBase}/api/v3/repos/${this.w.owner}/${this.w.repo}/pulls/${number}` };
    else delete issue.pull_request;
    return issue;
  }

  comment(o: { number: number; body: string; by: string; pr?: boolean; title?: string; issueBody?: string }): Record<string, any> {
    const p = this.base("issue_comment", "created", o.by);
    p.issue = this.issue(p, o.number, o.title ?? "Issue", o.issueBody ?? "", Boolean(o.pr));
    const id = this.w.id();
    this.w.reactionTargets.add(id);
    const at = new Date().toISOString();
    p.comment = { ...p.comment, id, body: o.body, user: this.w.user(o.by), created_at: at, updated_at: at };
    this.w.userComments.push({
      id,
      issue_number: o.number,
      body: o.body,
      user: this.w.user(o.by),
      created_at: at,
      updated_at: at,
      html_url: `${this.w.issueUrl(o.number)}#issuecomment-${id}`,
    });
    return p;
  }

  issueOpened(o: { number: number; title: string; body: string; by: string; labels?: string[] }): Record<string, any> {
    const p = this.base("issues", "opened", o.by);
    p.issue = this.issue(p, o.number, o.title, o.body, false, o.by);
    if (o.labels) {
      // An issue opened with labels carries them from the start (GitHub also sends a `labeled` event for each).
      this.w.labels.set(o.number, new Set(o.labels));
      p.issue.labels = o.labels.map((name, i) => ({ id: i + 1, node_id: `LA_${i + 1}`, name, color: "ededed", default: false, description: null }));
    }
    return p;
  }

  /** A workflow run or check suite completed on a pull request's head (the run must be in `world.workflowRuns`). */
  ciCompleted(o: { via: "workflow_run" | "check_suite"; runId: number; pr: number; by: string }): Record<string, any> {
    const run = this.w.workflowRuns.find((r) => r.id === o.runId);
    if (!run) throw new Error(`the fake GitHub has no run ${o.runId}`);
    const p = this.base(o.via, "completed", o.by);
    const pr = this.w.pulls.find((x) => x.number === o.pr);
    const pulls = [{ number: o.pr, id: o.pr, url: "", head: { ref: pr?.head.ref ?? "", sha: run.headSha }, base: { ref: "main", sha: "0".repeat(40) } }];
    const id = o.via === "workflow_run" ? run.id : run.checkSuiteId;
    p[o.via] = { ...p[o.via], id, head_sha: run.headSha, head_branch: pr?.head.ref, conclusion: run.conclusion, status: "completed", pull_requests: pulls };
    return p;
  }

  issueLabeled(o: { number: number; title: string; body: string; label: string; by: string }): Record<string, any> {
    const p = this.base("issues", "labeled", o.by);
    p.issue = this.issue(p, o.number, o.title, o.body, false);
    p.label = { ...p.label, name: o.label };
    this.labeled(o.number, o.label, o.by);
    return p;
  }

  private pull(p: Record<string, any>, number: number): Record<string, any> {
    const pr = this.w.pulls.find((x) => x.number === number);
    if (!pr) throw new Error(`the fake GitHub has no PR #${number}`);
    return {
      ...p.pull_request,
      number,
      title: pr.title,
      body: pr.body,
      draft: pr.draft,
      updated_at: new Date().toISOString(),
      head: { ...p.pull_request.head, ref: pr.head.ref, label: pr.head.label, sha: this.headSha(pr.head.ref) },
    };
  }

  /** The PR head as the remote has it: set by the harness, which can read the bare repository. */
  headSha: (branch: string) => string = () => "0".repeat(40);

  /** A submitted review; its line comments (`comments`) exist on GitHub with it, as when a reviewer submits them together. */
  review(o: {
    pr: number;
    state: "approved" | "changes_requested" | "commented";
    body: string;
    by: string;
    commitId?: string;
    comments?: LineComment[];
  }): Record<string, any> {
    const p = this.base("pull_request_review", "submitted", o.by);
    p.pull_request = this.pull(p, o.pr);
    p.review = {
      ...p.review,
      id: this.w.id(),
      state: o.state,
      body: o.body,
      commit_id: o.commitId ?? p.pull_request.head.sha,
      user: this.w.user(o.by),
      submitted_at: new Date().toISOString(),
    };
    this.w.reviews.push({
      id: p.review.id,
      pull_number: o.pr,
      state: o.state.toUpperCase(),
      body: o.body,
      commit_id: p.review.commit_id,
      user: this.w.user(o.by),
      submitted_at: p.review.submitted_at,
    });
    for (const c of o.comments ?? []) {
      const id = this.w.id();
      const at = p.review.submitted_at;
      this.w.reviewComments.push({
        id,
        pull_request_review_id: p.review.id,
        pull_number: o.pr,
        path: c.path,
        line: c.line,
        start_line: c.startLine ?? null,
        side: "RIGHT",
        diff_hunk: c.hunk,
        commit_id: p.review.commit_id,
        body: c.body,
        user: this.w.user(o.by),
        created_at: at,
        updated_at: at,
        html_url: `${this.w.htmlBase}/${this.w.owner}/${this.w.repo}/pull/${o.pr}#discussion_r${id}`,
      });
    }
    return p;
  }

  /** GitHub's `pull_request_review_comment.created` for each line comment of the review with id `reviewId`. */
  reviewCommentsCreated(reviewId: number): Record<string, any>[] {
    return this.w.reviewComments
      .filter((c) => c.pull_request_review_id === reviewId)
      .map((c) => {
        const p = this.base("pull_request_review_comment", "created", c.user.login);
        p.pull_request = this.pull(p, c.pull_number);
        p.comment = {
          ...p.comment,
          id: c.id,
          pull_request_review_id: reviewId,
          path: c.path,
          line: c.line,
          start_line: c.start_line,
          side: c.side,
          diff_hunk: c.diff_hunk,
          commit_id: c.commit_id,
          body: c.body,
          user: c.user,
          created_at: c.created_at,
          updated_at: c.updated_at,
          html_url: c.html_url,
        };
        return p;
      });
  }

  /**
   * `pull_request.synchronize`: the PR's branch moved from `before` to its head now. `by` is who
   * pushed (a bot's push is delivered too).
   */
  prSynchronize(o: { pr: number; before: string; by: string }): Record<string, any> {
    const p = this.base("pull_request", "synchronize", o.by);
    p.pull_request = this.pull(p, o.pr);
    const base = this.w.pulls.find((x) => x.number === o.pr)!.base.ref;
    p.pull_request.base = { ...p.pull_request.base, ref: base, sha: this.headSha(base), repo: p.repository };
    p.pull_request.head = { ...p.pull_request.head, repo: p.repository };
    p.number = o.pr;
    p.before = o.before;
    p.after = p.pull_request.head.sha;
    return p;
  }

  prLabeled(o: { pr: number; label: string; by: string }): Record<string, any> {
    const p = this.base("pull_request", "labeled", o.by);
    p.pull_request = this.pull(p, o.pr);
    p.number = o.pr;
    p.label = { ...p.label, name: o.label };
    this.labeled(o.pr, o.label, o.by);
    return p;
  }

  /** The label is on the issue now, and its `labeled` event is in the issue's events. */
  private labeled(number: number, label: string, by: string): void {
    let set = this.w.labels.get(number);
    if (!set) this.w.labels.set(number, (set = new Set()));
    set.add(label);
    this.w.issueEvents.push({
      id: this.w.id(),
      issue_number: number,
      event: "labeled",
      label: { name: label },
      actor: this.w.user(by),
      created_at: new Date().toISOString(),
    });
  }

  checkRunAction(o: { checkRunId: number; identifier: string; by: string }): Record<string, any> {
    const p = this.base("check_run", "requested_action", o.by);
    p.check_run = { ...p.check_run, id: o.checkRunId, name: "Patchgate" };
    p.requested_action = { identifier: o.identifier };
    return p;
  }

  /** The app uninstalled from the repository's account (no `repository` in these payloads). */
  installationDeleted(o: { by: string }): Record<string, any> {
    const p = this.installationEvent("installation", "deleted", o.by);
    p.repositories = [this.repositoryRef(p.repositories?.[0])];
    return p;
  }

  /** The repository taken out of the app's installation. */
  repositoriesRemoved(o: { by: string }): Record<string, any> {
    const p = this.installationEvent("installation_repositories", "removed", o.by);
    p.repositories_removed = [this.repositoryRef(p.repositories_removed?.[0])];
    return p;
  }

  /** Sent after `world.rename`: the repository under its new name, `changes` naming the old one. */
  repositoryRenamed(o: { from: string; by: string }): Record<string, any> {
    const p = this.base("repository", "renamed", o.by);
    p.changes = { repository: { name: { from: o.from } } };
    return p;
  }

  /** Sent after `world.transfer`: the repository on its new account, `changes` naming the old owner. */
  repositoryTransferred(o: { from: string; by: string }): Record<string, any> {
    const p = this.base("repository", "transferred", o.by);
    p.changes.owner.from = { organization: { ...(p.changes.owner.from.user ?? p.changes.owner.from.organization), login: o.from } };
    return p;
  }

  private installationEvent(event: string, action: string, sender: string): Record<string, any> {
    const p = example(event, action);
    p.installation = { ...p.installation, id: this.installationId, account: { ...p.installation.account, login: this.w.owner }, app_id: this.w.app.id };
    p.sender = { ...p.sender, ...this.w.user(sender) };
    return p;
  }

  private repositoryRef(example: Record<string, any> | undefined): Record<string, any> {
    return { ...example, id: this.w.repoId, name: this.w.repo, full_name: `${this.w.owner}/${this.w.repo}` };
  }
}
