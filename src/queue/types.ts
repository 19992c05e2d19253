/**
 * Where webhook handlers put work. A job runs after the request that enqueued it has been answered;
 * jobs with the same key run one after another, jobs with different keys may overlap.
 */
export interface Job {
  /** Serialisation key, e.g. the session's issue key `owner/repo#12`. */
  key: string;
  /** Human-readable, for logs and the demo timeline. */
  name: string;
  run(): Promise<void>;
  /**
   * What another process needs to run this job (the durable queue, src/queue/pg): plain JSON from
   * which a worker rebuilds `run`. The in-process queue ignores it and calls `run`.
   */
  spec?: JobSpec;
  /** Fairness group (the installation): a durable queue shares its workers fairly across groups. */
  group?: string;
}

/** A job as data: `kind` names the runner, the rest is its input. */
export interface JobSpec {
  kind: string;
  [field: string]: unknown;
}

export interface Queue {
  enqueue(job: Job): void;
  /** Resolves when every job enqueued so far (and any they enqueued) has settled. */
  idle(): Promise<void>;
  close(): Promise<void>;
  /**
   * Set by a queue whose jobs run in other processes (src/queue/pg): jobs need a `spec`, and the
   * two methods below exist.
   */
  readonly durable?: boolean;
  /** Resolves once everything enqueued here is stored (before a webhook is answered). */
  flushed?(): Promise<void>;
  /** Asks the process that runs lane `key` now to abort its job; whether one was running. */
  interrupt?(key: string, reason: string): Promise<boolean>;
  /**
   * Whether a stop's cancellation (spec kind `stop-cancel`) waits in lane `key`: work queued before
   * a stop that another process took stands down on this, as the AbortRegistry's `stopping` tells
   * it within one process.
   */
  stopPending?(key: string): Promise<boolean>;
  /** What `patchgate status` and `/patchgate/health` report of the queue (./status.ts). */
  counts?(): Promise<QueueCounts>;
}

/** The queue as an operator sees it. An embedded queue has no leases and keeps no ended jobs. */
export interface QueueCounts {
  queued: number;
  running: number;
  leases: { lane: string; owner: string; expiresAt: string; epoch: number }[];
  failed: { lane: string; name: string; error: string | null; endedAt: string }[];
  dead: { lane: string; name: string; error: string | null; attempts: number; endedAt: string }[];
}

export type JobErrorHandler = (job: Job, error: unknown) => void;
