import type { FakeAnnotation } from "./annotation-check.js";
import { HookDeliveries } from "./hook-deliveries.js";

/** The fake GitHub's world: what the real API would remember between calls. Plain data, no I/O. */
export interface FakeUser {
  login: string;
  id: number;
  type: "User" | "Bot";
}

export interface FakeComment {
  id: number;
  issue_number: number;
  body: string;
  user: FakeUser;
  created_at: string;
  updated_at: string;
  html_url: string;
}

/** A line comment on a PR's diff, as GitHub's pull request review comments API has it. */
export interface FakeReviewComment {
  id: number;
  pull_request_review_id: number | null;
  pull_number: number;
  in_reply_to_id?: number;
  path: string;
  line: number | null;
  start_line: number | null;
  side: "LEFT" | "RIGHT";
  diff_hunk: string;
  commit_id: string;
  body: string;
  user: FakeUser;
  created_at: string;
  updated_at: string;
  html_url: string;
}

export interface HeldCall {
  method: string;
  pathPrefix: string;
  match?: (path: string, body: unknown) => boolean;
  reached: () => void;
  /** Told the client's end of the connection, so a test can tell which process called. */
  caller?: (c: { remotePort: number }) => void;
  until: Promise<void>;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url?: string;
  external_id?: string;
  output: { title?: string; summary?: string; text?: string };
  actions: { label: string; description: string; identifier: string }[];
  html_url: string;
  /** Every annotation received, in order: GitHub appends those of each update. */
  annotations: FakeAnnotation[];
}

export interface FakePull {
  number: number;
  node_id: string;
  title: string;
  body: string;
  draft: boolean;
  state: "open" | "closed";
  head: { ref: string; label: string };
  base: { ref: string };
  html_url: string;
}

/** A commit status as GitHub keeps it (`sha` is the commit it is on). */
export interface FakeStatus {
  id: number;
  sha: string;
  state: "error" | "failure" | "pending" | "success";
  description: string | null;
  target_url: string | null;
  context: string;
  created_at: string;
  updated_at: string;
  creator: FakeUser;
}

/** One API call as the server saw it: the ordered log tests assert on. */
export interface CallRecord {
  method: string;
  /** Path without the GHE `/api/v3` prefix and without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
}

export class GitHubWorld {
  readonly permissions = new Map<string, string>();
  readonly users = new Map<string, FakeUser>();
  readonly comments: FakeComment[] = [];
  readonly reactions: { issue_number?: number; comment_id?: number; content: string; user: string }[] = [];
  /** Ids of human comments that exist on GitHub (sent as webhooks), so they can be reacted to. */
  readonly reactionTargets = new Set<number>();
  readonly checkRuns: FakeCheckRun[] = [];
  /** What people did in the UI (the payload builder records it): their comments, reviews, label events, issues. */
  readonly userComments: FakeComment[] = [];
  readonly reviews: { id: number; pull_number: number; state: string; body: string; commit_id: string; user: FakeUser; submitted_at: string }[] = [];
  /** Line comments on PR diffs (review comments), the reviewers' and Patchgate's replies, in order. */
  readonly reviewComments: FakeReviewComment[] = [];
  /** Commits made through the Git Data API, with who GitHub says made them and whether it signed them. */
  readonly apiCommits: {
    sha: string;
    author: { name: string; email: string };
    committer: { name: string; email: string };
    message: string;
    tree: string;
    parents: string[];
    verified: boolean;
  }[] = [];
  readonly issueEvents: { id: number; issue_number: number; event: "labeled"; label: { name: string }; actor: FakeUser; created_at: string }[] = [];
  readonly labels = new Map<number, Set<string>>();
  readonly issues = new Map<number, { id: number; number: number; title: string; body: string; user: FakeUser; created_at: string; updated_at: string }>();
  readonly pulls: FakePull[] = [];
  /** Commit statuses, oldest first. */
  readonly statuses: FakeStatus[] = [];
  /** Emails GitHub knows as an account's (verified): a commit with one is attributed to that login. */
  readonly emails = new Map<string, string>();
  /** Repository files on the default branch, served by the contents API (repo config). */
  readonly files = new Map<string, string>();
  /** Commits on the default branch that changed `files`, oldest first, as the commits API lists them by path. */
  /** GitHub Actions runs: each with its check suite and jobs, a job's log text served through a redirect. */
  readonly workflowRuns: {
    id: number;
    checkSuiteId: number;
    headSha: string;
    conclusion: string;
    jobs: { id: number; name: string; conclusion: string; log: string }[];
  }[] = [];
  readonly fileCommits: { sha: string; paths: string[]; author: FakeUser | null; message: string; date: string }[] = [];
  readonly calls: CallRecord[] = [];
  /** Requests refused because their body breaks GitHub's OpenAPI description, with the reasons. */
  readonly invalidRequests: { method: string; path: string; errors: string[] }[] = [];
  /** Installation tokens ever issued, newest last. Only the newest is accepted by the git remote. */
  readonly tokens: string[] = [];
  /**
   * Injected outages: the next call matching method and path prefix gets this status. With
   * `retryAfter` it is GitHub's secondary rate limit: 403, its message, and a `retry-after` header.
   */
  readonly failNext: { method: string; pathPrefix: string; status: number; retryAfter?: number }[] = [];
  /**
   * Injected slowness: the next call matching method and path prefix (and `match`, given the path and
   * the parsed body, when set) calls `reached` (and `caller` with the client's port), then waits for `until`.
   */
  readonly holdNext: HeldCall[] = [];
  /**
   * True: the Git Data API answers 404 for `refs/notes/*` (reading, creating or moving such a ref), as a
   * GitHub whose API does not reach notes refs; git pushes to them still work.
   */
  notesRefApiRefused = false;
  private nextId = 1000;
  private clock = Date.parse("2026-01-01T00:00:00Z");

  /** The app's webhook deliveries, as GitHub lists and redelivers them. */
  readonly hooks = new HookDeliveries(() => this.now());
  /** The app's one installation, on the repository's account. */
  readonly installationId = 77;
  /** False once the app is uninstalled: its tokens stop working and no new one is minted. */
  installed = true;
  /** False once the repository is taken out of the installation: the app cannot see it any more. */
  reachable = true;

  constructor(
    /** Where the repository is now: a rename or transfer changes these, never `repoId`. */
    public owner: string,
    public repo: string,
    readonly htmlBase: string,
    readonly app: { id: number; slug: string; botId: number },
    /** The bare repository served as `owner/repo` (commits that annotations must point into). */
    readonly bareRepo: string | null = null,
  ) {
    this.users.set(`${app.slug}[bot]`, { login: `${app.slug}[bot]`, id: app.botId, type: "Bot" });
  }

  id(): number {
    return (this.nextId += 1);
  }

  /** A monotonic clock, so timestamps order exactly as calls did. */
  now(): string {
    this.clock = Math.max(this.clock + 1000, Date.now());
    return new Date(this.clock).toISOString();
  }

  /**
   * Every token minted is good for git, as on GitHub until it expires, instead of the newest only
   * (which tests of the token refresh rely on): several processes each hold their own.
   */
  everyTokenValid = false;

  get currentToken(): string | null {
    return this.tokens.at(-1) ?? null;
  }

  user(login: string): FakeUser {
    let u = this.users.get(login);
    if (!u) this.users.set(login, (u = { login, id: this.id(), type: login.endsWith("[bot]") ? "Bot" : "User" }));
    return u;
  }

  get botLogin(): string {
    return `${this.app.slug}[bot]`;
  }

  issueUrl(n: number): string {
    return `${this.htmlBase}/${this.owner}/${this.repo}/issues/${n}`;
  }

  /** Issue and PR numbers share one sequence, as on GitHub. */
  nextNumber(): number {
    const used = [...this.pulls.map((p) => p.number), ...this.issueNumbers];
    return Math.max(0, ...used) + 1;
  }

  readonly issueNumbers = new Set<number>();
  /** The repository's id, which a rename or transfer does not change. */
  readonly repoId = 4711;
  /** The repository's default branch, as the payloads and `GET /repos/:o/:r` report it. */
  readonly defaultBranch = "main";

  /** The repository is renamed (its old name then answers 404 here; GitHub would redirect). */
  rename(name: string): void {
    this.repo = name;
  }

  /** The repository moves to another account. */
  transfer(owner: string): void {
    this.owner = owner;
  }

  /** The app is uninstalled: GitHub revokes its installation tokens. */
  uninstall(): void {
    this.installed = false;
  }

  /** The repository is removed from the app's installation. */
  removeRepository(): void {
    this.reachable = false;
  }
}
