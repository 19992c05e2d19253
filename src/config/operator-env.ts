import type { OperatorEnv } from "./operator-env-schema.js";

export type { OperatorEnv };

/**
 * The names the OperatorEnv schema declares (operator-env-schema.ts), as plain data: the app reads
 * its environment through this list without loading the schema library. The type below fails to
 * compile when the two differ.
 */
const NAMES = [
  "APP_ID",
  "PRIVATE_KEY",
  "WEBHOOK_SECRET",
  "GHE_HOST",
  "GHE_PROTOCOL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "PATCHGATE_MODEL",
  "PATCHGATE_DATA_DIR",
  "DATABASE_URL",
  "PATCHGATE_WORKER_SLOTS",
  "PATCHGATE_MAX_CLONES",
  "PATCHGATE_MAX_SANDBOX_RUNS",
  "PATCHGATE_LEASE_SECONDS",
  "PATCHGATE_WORKSPACE_RETENTION_HOURS",
  "PATCHGATE_MIRROR_MAX_AGE_DAYS",
  "PATCHGATE_MIRROR_MAX_GB",
  "PATCHGATE_MIN_FREE_DISK_GB",
  "PATCHGATE_HEALTH_TOKEN",
  "PATCHGATE_PRICES",
  "PATCHGATE_MCP_CONFIG",
  "PATCHGATE_SETTINGS",
  "PATCHGATE_CA_BUNDLE",
  "PATCHGATE_PRIVATE_DESTINATIONS",
  "PATCHGATE_RECONCILE_MINUTES",
  "PATCHGATE_CHECK_RUN_THROTTLE_MS",
  "PATCHGATE_LLM_PROVIDER",
  "OPENAI_API_VERSION",
  "PATCHGATE_LLM_TIMEOUT_S",
  "PATCHGATE_LLM_TOTAL_TIMEOUT_S",
  "PATCHGATE_LLM_RETRIES",
  "PATCHGATE_LLM_MAX_TOKENS",
  "PATCHGATE_LLM_MAX_TOKENS_RAISED",
  "PATCHGATE_LLM_CONTEXT_TOKENS",
  "PATCHGATE_LLM_REASONING_EFFORT",
  "PATCHGATE_LLM_PARALLEL_TOOL_CALLS",
  "PATCHGATE_LLM_STRICT_TOOLS",
  "PATCHGATE_LLM_STREAM",
  "PATCHGATE_REASONING_KEY",
  "PATCHGATE_SIGNING_KEY",
  "PATCHGATE_SIGNING_KEY_FILE",
  "PATCHGATE_PUBLIC_URL",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_SERVICE_NAME",
  "PATCHGATE_HEARTBEAT_MS",
] as const satisfies readonly (keyof OperatorEnv)[];

/** Compiles only while every variable of the schema is in NAMES. */
const everyNameListed: Exclude<keyof OperatorEnv, (typeof NAMES)[number]> extends never ? true : never = true;
void everyNameListed;

/** The operator's variables out of an environment (every other variable is left behind). */
function readOperatorEnv(source: Readonly<Record<string, string | undefined>>): OperatorEnv {
  const picked: Record<string, string> = {};
  for (const name of NAMES) {
    const value = source[name];
    if (value !== undefined) picked[name] = value;
  }
  return Object.freeze(picked);
}

/**
 * The operator's variables of this process, read when called: the entries (`npm start`, `patchgate`)
 * call it once, after `.env` is applied, and pass the result down.
 */
export function processOperatorEnv(): OperatorEnv {
  return readOperatorEnv(process.env);
}
