/**
 * Concurrency by resource, not by session (DESIGN §6): a session spends most of its time waiting for
 * the model, which costs this machine nothing, so sessions are not limited here; the CPU- and
 * disk-bound work they start is. One semaphore per kind of work, shared by every session of the
 * process: clones (and workspace rebuilds), and sandboxed runs (setup, tests, commands).
 *
 * PATCHGATE_MAX_CLONES and PATCHGATE_MAX_SANDBOX_RUNS set the sizes; both default to the number of
 * cores (at least 2, so one long test run never stalls every other session's).
 */
import { availableParallelism } from "node:os";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";
import { Semaphore } from "./semaphore.js";
import { FatalError } from "../errors/index.js";

export interface ResourceLimitSizes {
  clones: number;
  sandboxRuns: number;
}

export class ResourceLimitError extends FatalError {
  readonly kind = "invalid_limit";
}

function count(env: OperatorEnv, name: keyof OperatorEnv, fallback: number): number {
  const v = env[name]?.trim();
  if (v === undefined || v === "") return fallback;
  if (!/^[1-9]\d*$/.test(v)) throw new ResourceLimitError(`${name} must be a positive integer, got ${JSON.stringify(env[name])}`);
  return Number(v);
}

export function limitSizesFrom(env: OperatorEnv, cores = availableParallelism()): ResourceLimitSizes {
  const byCores = Math.max(2, cores);
  return { clones: count(env, "PATCHGATE_MAX_CLONES", byCores), sandboxRuns: count(env, "PATCHGATE_MAX_SANDBOX_RUNS", byCores) };
}

export interface ResourceLimits {
  clones: Semaphore;
  sandboxRuns: Semaphore;
}

let shared: ResourceLimits | null = null;

/**
 * The process's limits, sized on first use from `env` (the app passes the one it read at start),
 * else from the process's environment; a bad value throws, naming the variable.
 */
export function resourceLimits(env?: OperatorEnv): ResourceLimits {
  if (shared === null) {
    const sizes = limitSizesFrom(env ?? processOperatorEnv());
    shared = { clones: new Semaphore(sizes.clones), sandboxRuns: new Semaphore(sizes.sandboxRuns) };
  }
  return shared;
}
