import type { MirrorSettings } from "../workspace/mirror-settings.js";
import type { RepoConfig } from "../config/repo-config.js";
import type { CompactionSettings } from "../agent/context/compaction-thresholds.js";
import type { LLMClient } from "../agent/llm/types.js";
import type { ResumeOptions } from "../agent/runtime-options.js";
import type { McpConfig } from "../mcp/index.js";
import type { AbortRegistry } from "../queue/abort-registry.js";
import type { Queue } from "../queue/types.js";
import type { Sandbox } from "../sandbox/types.js";
import type { SessionSettings } from "../session/events.js";
import type { FreeSpaceReader } from "../workspace/disk-guard.js";
import type { SessionStore } from "../store/types.js";
import type { GitWorkspace } from "../workspace/git-workspace.js";
import type { AppIdentity } from "./identity.js";
import type { Delivery } from "./inbound/intent.js";
import type { Octokit } from "./octokit.js";
import type { Outbound } from "./outbound/outbound.js";
import type { AppLog } from "./app-log.js";
import type { SessionIndex } from "./session-work/session-index.js";
import type { ReceiptSettings } from "./receipt-settings.js";
import type { OperatorBudgets } from "../config/budgets.js";
import type { AppMetrics } from "./metrics/app-metrics.js";

/** Everything the GitHub side needs from the rest of Patchgate, built once by `src/index.ts` (or a test). */
export interface PatchgateDeps {
  store: SessionStore;
  queue: Queue;
  aborts: AbortRegistry;
  /** A client per resume: nothing of the model connection outlives a job. */
  llm: () => LLMClient;
  model: string;
  /** Compaction thresholds for the model's context window (PATCHGATE_LLM_CONTEXT_TOKENS); default otherwise. */
  compaction?: CompactionSettings;
  /** The sandbox for a repo's config (backend preference, image); null = commands are refused. */
  sandbox: (config: RepoConfig) => Promise<Sandbox | null>;
  /** Clones live in `<workspacesDir>/<sessionId>`. */
  workspacesDir: string;
  /** One mirror per repository that sessions' clones borrow from (workspace/mirror.ts); none: full clones. */
  mirrors?: MirrorSettings;
  /** `https://github.com` or the GHE host: where `<owner>/<repo>.git` is cloned from. */
  gitBase: string;
  /** Values never to be posted (API keys, the webhook secret…); tokens are added per job. */
  secrets: string[];
  /** Minimum time between two in-flight check-run updates; milestones always update. */
  checkRunThrottleMs: number;
  /** How long a lane waits for an aborted job to end before it goes on (default ABANDON_AFTER_ABORT_MS). */
  abandonAfterAbortMs?: number;
  settings?: Partial<SessionSettings>;
  /** The operator's MCP servers (PATCHGATE_MCP_CONFIG), never a repository's; null = none. */
  mcp?: McpConfig | null;
  /** The operator's sandbox additions (PATCHGATE_SETTINGS): toolchains, the host seen by resolution, the cache root. */
  sandboxExtras?: Pick<ResumeOptions, "toolchains" | "host" | "cacheRoot" | "toolchainWalks" | "dependencyCache">;
  /**
   * The delivery reconciler (./reconciler.ts): its first pass `firstAfterMs` after boot, then every
   * `everyMs`, until `signal` aborts. Absent: off.
   */
  reconcile?: { firstAfterMs: number; everyMs: number; signal?: AbortSignal } | null;
  /**
   * Housekeeping (../workspace/housekeeping.ts, ./housekeeping.ts): the workspaces and caches of
   * sessions ended more than `retentionMs` ago are removed, at boot and every `everyMs`. Absent: off.
   */
  housekeeping?: { retentionMs: number; everyMs: number; signal?: AbortSignal } | null;
  /**
   * Scheduled automations (./session-work/schedule-pass.ts), fired where the queue runs in this
   * process: `now` is the clock due times are judged by; `every` runs a pass at start and then each
   * minute (./session-work/schedule-timer.ts; a test runs the passes itself). Absent: off.
   */
  schedules?: { now: () => Date; every: (pass: () => Promise<void>) => void } | null;
  /** The disk-low guard (../workspace/disk-guard.ts): no new session while less than `minFreeBytes` is free; absent: off. */
  diskGuard?: { minFreeBytes: number; freeBytes?: FreeSpaceReader } | null;
  /** PATCHGATE_HEALTH_TOKEN: the bearer token `/patchgate/health` wants for details (./health-route.ts); absent: counts only. */
  healthToken?: string | null;
  /**
   * Receipts (./receipt-settings.ts): the key that signs a note on every commit the app publishes and
   * verifies them for the `patchgate/receipt` status, served at `/patchgate/keys`. Absent: none.
   */
  receipts?: ReceiptSettings | null;
  /** The operator's budgets (PATCHGATE_SETTINGS `budgets:`): checked before a session starts; absent: none. */
  budgets?: OperatorBudgets;
  /** What `GET /metrics` reports of this process (./metrics/); absent: nothing is counted. */
  metrics?: AppMetrics;
  /** One line per thing that happened, for logs and the demo's printed timeline; failures at `error`. */
  log: AppLog;
}

/**
 * What the app holds outside any delivery: the operator's dependencies, the session index, the app's
 * own clients. Built once when the app starts (./app.ts `appContext`) and never changed; a job that
 * needs another view of it (a worker's store fenced by its lease) makes a new one.
 */
export interface AppContext {
  readonly deps: Readonly<PatchgateDeps>;
  readonly index: SessionIndex;
  readonly identity: AppIdentity;
  /** The app itself (JWT), for the git token. */
  readonly appOctokit: () => Promise<Octokit>;
  /** An installation's client (Probot's `app.auth(id)`). */
  readonly installation: (installationId: number) => Promise<Octokit>;
}

/**
 * What every job holds before it has a git token: enough to read GitHub and to answer (a refusal
 * needs no token). Built once per job, never changed.
 */
export interface Intake {
  readonly deps: PatchgateDeps;
  readonly delivery: Delivery;
  readonly octokit: Octokit;
  /** The app itself (JWT): mints the per-job git token. */
  readonly appOctokit: () => Promise<Octokit>;
  readonly index: SessionIndex;
  readonly identity: AppIdentity;
  /** The default branch's `.github/patchgate.yml` as text, or null when there is none (./repo-config.ts). */
  readonly readConfig: () => Promise<string | null>;
  /** Every text this job posts passes here (./outbound.ts). */
  readonly outbound: Outbound;
}

/**
 * What one job holds once the sender may act: the intake plus the job's freshly minted git token —
 * the auth header of every git call, and one more value the outbound gate redacts.
 */
export interface JobContext extends Intake {
  readonly token: string;
}

/**
 * What driving a session needs of the job that drives it: a webhook's job, or a resume at boot that
 * no webhook asked for. Only the repository and an id (for the markers of one-off answers) are used
 * of the delivery, so a boot resume supplies those and nothing it would have to make up.
 */
export interface SessionWork extends Omit<JobContext, "delivery" | "readConfig"> {
  readonly delivery: Pick<Delivery, "id" | "event" | "repo">;
}

/** Who can post: any job, with or without a token. */
export type Poster = Pick<SessionWork, "deps" | "delivery" | "octokit" | "identity" | "outbound">;

/** The job context, frozen, with the token also redacted by its outbound gate. */
export function withToken<T extends Omit<Intake, "delivery" | "readConfig">>(base: T, token: string): T & { readonly token: string } {
  return Object.freeze({ ...base, token, outbound: base.outbound.withSecrets([token]) });
}

/** The workspace as the GitHub side uses it: the contract plus pushing. */
export type PushableWorkspace = GitWorkspace;
