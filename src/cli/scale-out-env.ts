import { isPostgresUrl } from "../store/open-store.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { UsageError } from "./usage-error.js";

/** DATABASE_URL for a scale-out command, or a usage error that says what to do instead. */
export function scaleOutUrl(command: string, env: OperatorEnv = processOperatorEnv()): string {
  const url = env.DATABASE_URL;
  if (!url || !isPostgresUrl(url)) {
    throw new UsageError(
      `patchgate ${command} needs DATABASE_URL=postgres://… (${url ? "it is not a PostgreSQL URL" : "it is not set"}); one process on the embedded SQLite store is \`npm start\``,
    );
  }
  return url;
}

/** A positive whole number from the environment, or `fallback` when unset; a bad value is a usage error naming the variable. */
export function envCount(env: OperatorEnv, name: keyof OperatorEnv, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  if (!/^[1-9]\d*$/.test(v.trim())) throw new UsageError(`${name} must be a positive integer, got "${v}"`);
  return Number(v);
}
