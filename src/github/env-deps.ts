import { wallClockSchedules } from "./session-work/schedule-timer.js";
import { join } from "node:path";
import { homedir } from "node:os";
import type { RepoConfig } from "../config/repo-config.js";
import { clientOptions, llmConfigFromEnv } from "../agent/llm/llm-config.js";
import { lazyClient } from "../agent/llm/lazy-client.js";
import { vaultFromEnv } from "../agent/llm/reasoning-vault.js";
import { AbortRegistry } from "../queue/abort-registry.js";
import { InProcessQueue } from "../queue/in-process.js";
import { writeCaBundle } from "../sandbox/ca-bundle.js";
import { selectSandbox } from "../sandbox/select.js";
import type { EgressSettings } from "../sandbox/egress/egress-run.js";
import type { Sandbox } from "../sandbox/types.js";
import { openStore } from "../store/open-store.js";
import { redactionSet } from "../config/redaction-set.js";
import type { PatchgateDeps } from "./deps.js";
import { gitBaseUrl } from "./outbound/git-remote.js";
import { dependencyCacheIn, NO_OPERATOR_SETTINGS } from "../config/operator-defaults.js";
import { privateDestinationsFrom } from "../config/private-destinations.js";
import { hostFacts } from "../toolchain/host-facts.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { hostEnvironment } from "../process/index.js";
import { redactedLog, type LogSink } from "./app-log.js";
import { diskGuardFromEnv, housekeepingFromEnv, mirrorsFromEnv } from "./session-work/housekeeping-env.js";
import { receiptSettings } from "./receipt-settings.js";
import { AppMetrics } from "./metrics/app-metrics.js";
import { timedQueue } from "./metrics/timed-queue.js";

/**
 * The production wiring from the environment (DESIGN §7): SQLite under PATCHGATE_DATA_DIR (or the
 * PostgreSQL of DATABASE_URL), the in-process queue, the OpenAI-compatible client, the best sandbox
 * the host offers. What is not configured is not loaded (an idle app stays small): the PostgreSQL
 * driver, the MCP config's parser, the model client (until the first resume) and the tool schemas
 * (only to size compaction for a known window). The sandbox is probed at the first sandbox.
 * `env` is the operator's variables as read at start; `host` the rest of the process's environment,
 * whose secret-looking values are redacted too.
 */
export async function depsFromEnv(
  sink: LogSink,
  env: OperatorEnv = processOperatorEnv(),
  host: Readonly<Record<string, string | undefined>> = hostEnvironment(),
): Promise<PatchgateDeps> {
  // A broken MCP config stops the app here, naming the field: better than running without the servers.
  // Lazy: the parser and its schemas are loaded only when a config is given.
  // eslint-disable-next-line import-x/no-restricted-paths -- loaded lazily: through the face it would load at once
  const mcpModule = env.PATCHGATE_MCP_CONFIG ? await import("../mcp/config.js") : null;
  const mcp = mcpModule?.loadMcpConfig(env.PATCHGATE_MCP_CONFIG!) ?? null;
  const reconcile = reconcileFromEnv(env);
  const dataDir = env.PATCHGATE_DATA_DIR ?? join(homedir(), ".patchgate");
  // Loaded (or created, once for all workers sharing the data directory) before the first delivery;
  // its private half is one more value nothing posts or logs.
  const receipts = receiptSettings(dataDir, env);
  // Like a broken MCP config, broken operator settings stop the app, naming the field (a private
  // registry's missing credential among them). Lazy: their parser is loaded only when settings are
  // given. Read before the secrets: the registries' credentials are redacted by value.
  const facts = hostFacts({ dataDir });
  const settings = env.PATCHGATE_SETTINGS
    ? (await import("../config/operator-settings.js")).loadOperatorSettings(env.PATCHGATE_SETTINGS, facts.protectedDirs, { ...host, ...env })
    : NO_OPERATOR_SETTINGS;
  const secrets = redactionSet({ ...host, ...env }, settings, [
    ...(mcpModule?.mcpConfigSecrets(mcp) ?? []),
    receipts.keys.current.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  ]);
  // Logs leave the process too: the same redaction as comments and check runs (tokens by pattern).
  const log = redactedLog(sink, secrets);
  // A bad PATCHGATE_LLM_* value stops the app at boot, naming the variable.
  const llmConfig = llmConfigFromEnv(env);
  const vault = vaultFromEnv(env, dataDir);
  // The CA bundle networked setups trust, made once per start; a bad path stops the app, naming it.
  const metrics = new AppMetrics();
  const caBundle = writeCaBundle(dataDir, { PATCHGATE_CA_BUNDLE: env.PATCHGATE_CA_BUNDLE, NODE_EXTRA_CA_CERTS: host.NODE_EXTRA_CA_CERTS });
  return {
    store: await openStore({ dataDir, databaseUrl: env.DATABASE_URL }),
    queue: timedQueue(
      new InProcessQueue((job, error) =>
        log(`job ${job.name} failed: ${error instanceof Error ? error.message : String(error)}`, "error", { job: job.name, lane: job.key }),
      ),
      metrics,
    ),
    aborts: new AbortRegistry(),
    llm: () => {
      // Checked per resume, not at boot, so the app (and the setup flow) starts without a key.
      if (!llmConfig.apiKey) throw new Error("OPENAI_API_KEY is not set");
      const options = clientOptions(llmConfig, vault);
      // Lazy: the provider's SDK loads at the first model call, not in an idle app.
      return lazyClient(options.model, async () => (await import("../agent/llm/openai-client.js")).createOpenAIClient(options));
    },
    model: llmConfig.model,
    // Without a window the runtime's default thresholds apply (agent/model-loop.ts). Lazy: sizing loads
    // the tool schemas, which an app without a known window never needs.
    compaction: llmConfig.contextTokens === undefined ? undefined : (await import("../agent/context/compaction-thresholds.js")).compactionFor(llmConfig),
    sandbox: cachedSandbox({ caBundle, registries: settings.registries, privateDestinations: privateDestinationsFrom(env) }),
    workspacesDir: join(dataDir, "workspaces"),
    mirrors: mirrorsFromEnv(env, dataDir),
    gitBase: gitBaseUrl(env),
    secrets,
    mcp,
    sandboxExtras: {
      toolchains: settings.toolchains,
      host: facts,
      cacheRoot: join(dataDir, "cache"),
      toolchainWalks: join(dataDir, "toolchain-walks"),
      dependencyCache: dependencyCacheIn(dataDir, settings),
    },
    checkRunThrottleMs: Number(env.PATCHGATE_CHECK_RUN_THROTTLE_MS ?? 5000),
    reconcile,
    healthToken: env.PATCHGATE_HEALTH_TOKEN || null,
    housekeeping: housekeepingFromEnv(env),
    schedules: wallClockSchedules(log),
    diskGuard: diskGuardFromEnv(env),
    receipts,
    budgets: settings.budgets,
    metrics,
    log,
  };
}

/** PATCHGATE_RECONCILE_MINUTES (default 10; 0 turns it off): the first pass a minute after boot. */
export function reconcileFromEnv(env: OperatorEnv): PatchgateDeps["reconcile"] {
  const minutes = Number(env.PATCHGATE_RECONCILE_MINUTES ?? 10);
  if (!Number.isFinite(minutes) || minutes < 0)
    throw new Error(`PATCHGATE_RECONCILE_MINUTES must be a number of minutes ≥ 0, not ${JSON.stringify(env.PATCHGATE_RECONCILE_MINUTES)}`);
  return minutes === 0 ? null : { firstAfterMs: 60_000, everyMs: minutes * 60_000 };
}

/**
 * Probing a backend costs up to seconds (docker info); once per preference and image is enough.
 * `egress`: the CA bundle's host path (ca-bundle.ts), bound into networked setups, the operator's
 * private registries, which networked setups reach through their gateway, and private destinations.
 */
export function cachedSandbox(egress: EgressSettings = {}): (config: RepoConfig) => Promise<Sandbox | null> {
  const seen = new Map<string, Promise<Sandbox | null>>();
  return (config) => {
    const key = `${config.sandbox.backend}:${config.sandbox.image}`;
    let s = seen.get(key);
    if (!s) seen.set(key, (s = selectSandbox(config.sandbox.backend, { image: config.sandbox.image, ...egress }).then((r) => r.sandbox)));
    return s;
  };
}
