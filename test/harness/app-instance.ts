import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { createNodeMiddleware, createProbot, ProbotOctokit } from "probot";
import type { LLMClient } from "../../src/agent/llm/types.js";
import type { McpConfig } from "../../src/mcp/config.js";
import { privateDestinationsFrom } from "../../src/config/private-destinations.js";
import { patchgateApp } from "../../src/github/app.js";
import type { PatchgateDeps } from "../../src/github/deps.js";
import { gitBaseUrl } from "../../src/github/outbound/git-remote.js";
import { patchgateOctokit } from "../../src/github/octokit.js";
import type { GitHubLimits } from "../../src/github/rate-limits.js";
import { cachedSandbox } from "../../src/github/env-deps.js";
import { AbortRegistry } from "../../src/queue/abort-registry.js";
import { InProcessQueue } from "../../src/queue/in-process.js";
import type { Queue } from "../../src/queue/types.js";
import { timedQueue } from "../../src/github/metrics/timed-queue.js";
import { OpenSessionSandboxes } from "../../src/sandbox/open-sessions.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import type { SessionStore } from "../../src/store/types.js";
import { startWorker, useReceiverQueue, type WorkerSettings } from "../../src/github/scale-out.js";

/**
 * One running Patchgate: a Probot built from environment-style settings (GHE_HOST points it at the
 * fake GitHub), its real HTTP server on 127.0.0.1, and its own store object on `dbFile`. A restart
 * is closing this and starting another on the same file — what a new process would do.
 */
export interface AppInstance {
  webhookUrl: string;
  deps: PatchgateDeps;
  /** Job failures; a test expects none. */
  errors: unknown[];
  close(): Promise<void>;
  /**
   * What a crash leaves behind: the server stops answering and the SQLite file is let go, but work in
   * flight is abandoned, not awaited — whatever it had not written to the store never happened.
   */
  kill(): Promise<void>;
}

export interface AppSettings {
  appId: number;
  privateKey: string;
  secret: string;
  gheHost: string;
  dbFile: string;
  workspacesDir: string;
  llm: () => LLMClient;
  model: string;
  secrets: string[];
  checkRunThrottleMs: number;
  abandonAfterAbortMs?: number;
  mcp?: McpConfig | null;
  log: (line: string) => void;
  /** GitHub's limits as production handles them, on a faster clock (see TEST_LIMITS). */
  limits?: GitHubLimits;
  /** The host toolchain resolution sees and the operator's toolchains; default: this process's host, a cache beside the database. */
  sandboxExtras?: PatchgateDeps["sandboxExtras"];
  /** PATCHGATE_PRIVATE_DESTINATIONS as the operator writes it; absent: none. */
  privateDestinations?: string;
  /** The delivery reconciler's clock; absent: off (tests that count API calls). */
  reconcile?: { firstAfterMs: number; everyMs: number };
  /**
   * Scale-out (README "Scaling out"): the PostgreSQL store at `databaseUrl` instead of `dbFile`, and
   * this process one `role` of it — a receiver (HTTP, enqueues) or a worker (runs the queue, no
   * HTTP). Absent: the embedded default, both in one process on SQLite.
   */
  scaleOut?: { databaseUrl: string; role: "serve" | "worker" } & Omit<WorkerSettings, "url">;
  /** PATCHGATE_HEALTH_TOKEN: details from `/patchgate/health` (src/github/health-route.ts). */
  healthToken?: string;
  /** Workspace retention and the disk-low guard (PATCHGATE_WORKSPACE_RETENTION_HOURS, PATCHGATE_MIN_FREE_DISK_GB); absent: off. */
  housekeeping?: PatchgateDeps["housekeeping"];
  diskGuard?: PatchgateDeps["diskGuard"];
  /** The deployment's receipt keys and clones; absent: no receipts (tests that count API calls). */
  receipts?: PatchgateDeps["receipts"];
  /** The operator's budgets (PATCHGATE_SETTINGS `budgets:`); absent: none. */
  budgets?: PatchgateDeps["budgets"];
  /** The schedules' clock and passes (a test runs them itself); absent: off. */
  schedules?: PatchgateDeps["schedules"];
  /** What `GET /metrics` counts; absent: no metrics route. */
  metrics?: PatchgateDeps["metrics"];
}

/**
 * Production's shape of GitHub limits with a shorter clock: a second of `retry-after` is 10 ms and
 * writes are not spaced, so a story does not wait seconds per comment. Retries stay on.
 */
export const TEST_LIMITS: GitHubLimits = { maxLimitRetries: 3, maxWaitSeconds: 600, secondMs: 10, writeSpacingMs: 0, notifySpacingMs: 0, serverRetries: 3 };

export async function startApp(s: AppSettings): Promise<AppInstance> {
  const env: NodeJS.ProcessEnv = {
    APP_ID: String(s.appId),
    PRIVATE_KEY: s.privateKey,
    WEBHOOK_SECRET: s.secret,
    GHE_HOST: s.gheHost,
    GHE_PROTOCOL: "http",
    LOG_LEVEL: "fatal",
  } as NodeJS.ProcessEnv;
  const probot = createProbot({ env, overrides: { Octokit: patchgateOctokit(ProbotOctokit, s.limits ?? TEST_LIMITS) } });
  const errors: unknown[] = [];
  const store: SessionStore = s.scaleOut ? new PostgresSessionStore(s.scaleOut.databaseUrl) : SqliteSessionStore.open(s.dbFile);
  // Stops the reconciler with the instance: a pass after close would find the store gone.
  const running = new AbortController();
  // Ended with the instance: a resume it leaves behind (a model call that never returns) keeps its sandbox otherwise.
  const sandboxes = new OpenSessionSandboxes();
  // As the app's environment builds it: a job's wait in the queue observed where there are metrics.
  const timed = (q: Queue): Queue => (s.metrics ? timedQueue(q, s.metrics) : q);
  let deps: PatchgateDeps = {
    store,
    queue: timed(
      new InProcessQueue((job, e) => {
        errors.push(e);
        s.log(`job ${job.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }),
    ),
    aborts: new AbortRegistry(),
    llm: s.llm,
    model: s.model,
    sandbox: sandboxes.tracking(cachedSandbox({ privateDestinations: privateDestinationsFrom({ PATCHGATE_PRIVATE_DESTINATIONS: s.privateDestinations }) })),
    workspacesDir: s.workspacesDir,
    gitBase: gitBaseUrl(env),
    secrets: s.secrets,
    checkRunThrottleMs: s.checkRunThrottleMs,
    abandonAfterAbortMs: s.abandonAfterAbortMs,
    mcp: s.mcp ?? null,
    sandboxExtras: { cacheRoot: join(dirname(s.dbFile), "cache"), ...s.sandboxExtras },
    reconcile: s.reconcile ? { ...s.reconcile, signal: running.signal } : null,
    healthToken: s.healthToken ?? null,
    housekeeping: s.housekeeping ? { ...s.housekeeping, signal: running.signal } : null,
    diskGuard: s.diskGuard ?? null,
    receipts: s.receipts ?? null,
    ...(s.budgets && { budgets: s.budgets }),
    ...(s.schedules && { schedules: s.schedules }),
    ...(s.metrics && { metrics: s.metrics }),
    log: s.log,
  };
  if (s.scaleOut?.role === "worker") {
    deps = await startWorker(probot, deps, store as PostgresSessionStore, { ...s.scaleOut, url: s.scaleOut.databaseUrl });
    const stop = async () => {
      running.abort();
      await deps.queue.close();
      await store.close();
      await sandboxes.closeAll();
    };
    return { webhookUrl: "", deps, errors, close: stop, kill: stop };
  }
  if (s.scaleOut) deps = await useReceiverQueue(deps, store as PostgresSessionStore, s.scaleOut.databaseUrl);
  const middleware = await createNodeMiddleware(patchgateApp(deps), { probot, webhooksPath: "/api/github/webhooks" });
  const server: Server = createServer((req, res) => {
    void middleware(req, res, () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`,
    deps,
    errors,
    close: async () => {
      running.abort();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.queue.close();
      await store.close();
      await sandboxes.closeAll();
    },
    kill: async () => {
      running.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      // What a dead process leaves running: nothing. The work in flight stays abandoned, its sandbox does not.
      await sandboxes.closeAll();
    },
  };
}
