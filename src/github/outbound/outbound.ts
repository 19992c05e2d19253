import type { Repo } from "../inbound/intent.js";
import type { Octokit } from "../octokit.js";
import type { Annotation } from "../../trace/report/provenance.js";
import {
  annotationText,
  BODY_LIMIT,
  CHECK_RUN_LIMIT,
  COMMIT_LIMIT,
  MAX_ANNOTATIONS_PER_REQUEST,
  outboundText,
  outboundTitle,
  type TextPolicy,
} from "./outbound-text.js";

/**
 * The outbound gate: the only path by which src/github posts text — comments, PR title and body,
 * check-run title, summary and text — and the only source of commit messages. Every text is
 * redacted, made inert and cut to GitHub's limits here (./outbound-text.ts), whatever rendered it;
 * test/github/publish/outbound-only-path.test.ts fails when another module calls a text-posting endpoint.
 * Markers (`<!-- patchgate:… -->`) are added after the text is made inert, so they survive it.
 */
export interface OutboundOptions {
  /** Configured secrets and the job's tokens: redacted from everything posted. */
  secrets: readonly string[];
  /** `https://github.com` or the GHE host: links into `<base>/<owner>/<repo>` stay links. */
  htmlBase: string;
}

/** Attribute-free tags Patchgate's own renderers may use; model text never gets them (see ../safety/inert.ts). */
const OWN_TAGS = ["details", "summary", "sub", "sup", "br", "b", "i", "kbd", "code"];

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
  /** Plain text on the diff (no markdown): redacted and capped, never more than GitHub's 50 a request. */
  annotations?: Annotation[];
}

export interface CheckRunAction {
  label: string;
  description: string;
  identifier: string;
}

export class Outbound {
  constructor(
    private readonly octokit: Octokit,
    private readonly repo: Repo,
    private readonly opts: OutboundOptions,
  ) {}

  /** The same gate with more values to redact (the job's git token, once minted). */
  withSecrets(more: readonly string[]): Outbound {
    return new Outbound(this.octokit, this.repo, { ...this.opts, secrets: [...this.opts.secrets, ...more] });
  }

  private policy(sessionId?: string | null): TextPolicy {
    return {
      secrets: this.opts.secrets,
      inert: { ownUrl: `${this.opts.htmlBase}/${this.repo.owner}/${this.repo.repo}`, allowTags: OWN_TAGS },
      fullTextHint: sessionId ? `\`patchgate trace ${sessionId}\`` : "`patchgate trace`",
    };
  }

  private where() {
    return { owner: this.repo.owner, repo: this.repo.repo };
  }

  /** A comment body: the text made safe, then the marker. */
  commentBody(text: string, marker: string, sessionId?: string | null): string {
    return `${outboundText(text, BODY_LIMIT, this.policy(sessionId), marker.length + 2)}\n\n${marker}`;
  }

  /** Redacted and inert; Patchgate's own trailers (`Resolves #n`, `Co-authored-by:`) are added by the caller after. */
  commitMessage(text: string): string {
    return outboundText(text, COMMIT_LIMIT, this.policy());
  }

  async createComment(issue: number, text: string, marker: string, sessionId?: string | null) {
    const { data } = await this.octokit.rest.issues.createComment({ ...this.where(), issue_number: issue, body: this.commentBody(text, marker, sessionId) });
    return data;
  }

  async updateComment(commentId: number, text: string, marker: string, sessionId?: string | null) {
    const { data } = await this.octokit.rest.issues.updateComment({ ...this.where(), comment_id: commentId, body: this.commentBody(text, marker, sessionId) });
    return data;
  }

  /** A reply in a line comment's thread on the diff. */
  async replyToReviewComment(pull: number, commentId: number, text: string, marker: string, sessionId: string) {
    const { data } = await this.octokit.rest.pulls.createReplyForReviewComment({
      ...this.where(),
      pull_number: pull,
      comment_id: commentId,
      body: this.commentBody(text, marker, sessionId),
    });
    return data;
  }

  /** An issue Patchgate opens itself (a scheduled automation's runs are carried by one). */
  async createIssue(issue: { title: string; body: string }) {
    const p = this.policy();
    const { data } = await this.octokit.rest.issues.create({
      ...this.where(),
      title: outboundTitle(issue.title, p),
      body: outboundText(issue.body, BODY_LIMIT, p),
    });
    return data;
  }

  async createPull(pr: { head: string; base: string; title: string; body: string; draft: boolean }, sessionId: string) {
    const p = this.policy(sessionId);
    const { data } = await this.octokit.rest.pulls.create({
      ...this.where(),
      ...pr,
      title: outboundTitle(pr.title, p),
      body: outboundText(pr.body, BODY_LIMIT, p),
    });
    return data;
  }

  async updatePull(number: number, change: { body: string; state?: "open" }, sessionId: string) {
    const { data } = await this.octokit.rest.pulls.update({
      ...this.where(),
      pull_number: number,
      ...change,
      body: outboundText(change.body, BODY_LIMIT, this.policy(sessionId)),
    });
    return data;
  }

  private output(o: CheckRunOutput, sessionId: string): CheckRunOutput {
    const p = this.policy(sessionId);
    return {
      title: outboundTitle(o.title, p),
      summary: outboundText(o.summary, CHECK_RUN_LIMIT, p),
      ...(o.text !== undefined ? { text: outboundText(o.text, CHECK_RUN_LIMIT, p) } : {}),
      ...(o.annotations ? { annotations: o.annotations.slice(0, MAX_ANNOTATIONS_PER_REQUEST).map((a) => annotationText(a, p)) } : {}),
    };
  }

  /** The run is tagged with the session (`external_id`), so one created by a process that died is found again. */
  async createCheckRun(run: { name: string; head_sha: string; status: "in_progress"; output: CheckRunOutput; actions: CheckRunAction[] }, sessionId: string) {
    const { data } = await this.octokit.rest.checks.create({ ...this.where(), ...run, external_id: sessionId, output: this.output(run.output, sessionId) });
    return data;
  }

  /** This session's run named `name` on commit `sha`, if one exists on GitHub. */
  async findCheckRun(name: string, sha: string, sessionId: string): Promise<{ id: number; html_url: string | null } | null> {
    const { data } = await this.octokit.rest.checks.listForRef({ ...this.where(), ref: sha, check_name: name, filter: "all", per_page: 100 });
    return data.check_runs.find((r) => r.external_id === sessionId) ?? null;
  }

  async updateCheckRun(
    id: number,
    change: { status?: "completed"; conclusion?: string; details_url?: string; actions?: CheckRunAction[]; output: CheckRunOutput },
    sessionId: string,
  ): Promise<void> {
    const params: Record<string, unknown> = { ...this.where(), check_run_id: id, ...change, output: this.output(change.output, sessionId) };
    await this.octokit.request("PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}", params as never);
  }
}
