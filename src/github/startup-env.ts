import { homedir } from "node:os";
import { join } from "node:path";
import { llmConfigFromEnv } from "../agent/llm/llm-config.js";
import { limitSizesFrom } from "../agent/resource-limits.js";
import type { OperatorEnv } from "../config/operator-env.js";
import { hostEnvironment } from "../process/index.js";
import { privateDestinationsFrom } from "../config/private-destinations.js";
import { caCertificates } from "../sandbox/ca-bundle.js";
import { isPostgresUrl } from "../store/open-store.js";
import { reconcileFromEnv } from "./env-deps.js";
import { publicUrlFromEnv } from "./receipt-settings.js";
import { diskGuardFromEnv, housekeepingFromEnv, mirrorsFromEnv } from "./session-work/housekeeping-env.js";

/**
 * Every variable the app reads as a number, flag or URL, read once before Probot starts: a bad one is
 * one line naming it (`PATCHGATE_LLM_RETRIES must be a whole number ≥ 0, got "lots"`), not a stack
 * trace from the middle of the app's wiring. These readers throw only for a bad value, so any error
 * from this list is the operator's to fix. Null when all are well. `host`: the rest of the process's
 * environment, for NODE_EXTRA_CA_CERTS.
 */
export function startupEnvProblem(env: OperatorEnv, host: Readonly<Record<string, string | undefined>> = hostEnvironment()): string | null {
  const dataDir = env.PATCHGATE_DATA_DIR ?? join(homedir(), ".patchgate");
  const readers: (() => unknown)[] = [
    () => llmConfigFromEnv(env),
    () => limitSizesFrom(env),
    () => reconcileFromEnv(env),
    () => housekeepingFromEnv(env),
    () => diskGuardFromEnv(env),
    () => mirrorsFromEnv(env, dataDir),
    () => publicUrlFromEnv(env),
    () => privateDestinationsFrom(env),
    () => caCertificates({ PATCHGATE_CA_BUNDLE: env.PATCHGATE_CA_BUNDLE, NODE_EXTRA_CA_CERTS: host.NODE_EXTRA_CA_CERTS }),
    () => {
      if (env.DATABASE_URL && !isPostgresUrl(env.DATABASE_URL)) throw new Error("DATABASE_URL must start with postgres:// or postgresql://");
    },
  ];
  for (const read of readers) {
    try {
      read();
    } catch (e) {
      return (e as Error).message;
    }
  }
  return null;
}

/** What the app runs on, in one line for the operator (never the key: only whether one is set). */
export function startupLine(env: OperatorEnv, where: { queue: string; sandbox: string }): string {
  const llm = llmConfigFromEnv(env);
  const store = env.DATABASE_URL
    ? `postgres ${new URL(env.DATABASE_URL).host}`
    : `sqlite ${join(env.PATCHGATE_DATA_DIR ?? join(homedir(), ".patchgate"), "patchgate.sqlite")}`;
  const base = llm.baseURL ?? "https://api.openai.com/v1 (default)";
  return `patchgate: store ${store}; queue ${where.queue}; sandbox ${where.sandbox}; model ${llm.model}; base URL ${base}`;
}

/** The warning when no key is set: the app starts (the manifest flow needs no model) but no session can run. */
export function missingKeyWarning(env: OperatorEnv): string | null {
  return env.OPENAI_API_KEY
    ? null
    : "OPENAI_API_KEY is not set: every session will fail until it is (set it in .env or the environment, and OPENAI_BASE_URL for a compatible server)";
}
