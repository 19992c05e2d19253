import path from "node:path";
import { sandboxEnv, withRuntimeEnv } from "./env-policy.js";
import { OFFLINE_ENV } from "./offline-env.js";
import { stateEnv, type RunAccess } from "./run-state.js";
import { SandboxError } from "./sandbox-error.js";
import type { SandboxLimits, SandboxRunRequest } from "./types.js";
import { SANDBOX_WORKSPACE } from "../policy/well-known-paths.js";

/** Used when a request leaves a limit out; the same numbers as the repo config defaults. */
const DEFAULT_LIMITS: Required<SandboxLimits> = {
  maxOutputBytes: 1024 * 1024,
  maxProcesses: 256,
  memoryBytes: 2048 * 1024 * 1024,
  diskBytes: 2048 * 1024 * 1024,
  cpuSeconds: 300,
};

/** Every backend mounts the workspace there, so paths in test output read the same everywhere. */
export { SANDBOX_WORKSPACE };

/** A request checked and completed once, so the argv builders stay pure and never re-validate. */
export interface PreparedRun {
  argv: string[];
  /** Absolute, normalised host path. */
  workspace: string;
  /** Absolute path inside the sandbox: SANDBOX_WORKSPACE or below it. */
  cwd: string;
  env: Record<string, string>;
  refusedEnv: string[];
  network: boolean;
  readOnlyWorkspace: boolean;
  /** What it may write outside the workspace (run-state.ts). */
  access: RunAccess;
  timeoutMs: number;
  limits: Required<SandboxLimits>;
}

export function prepareRun(req: SandboxRunRequest, extraPathDirs: readonly string[] = []): PreparedRun {
  if (req.argv.length === 0 || req.argv[0] === "") throw new SandboxError("invalid_request", "argv is empty");
  if (req.argv.some((a) => a.includes("\0"))) throw new SandboxError("invalid_request", "argv contains a NUL byte");
  if (!path.isAbsolute(req.workspace)) throw new SandboxError("invalid_request", `workspace must be absolute: ${req.workspace}`);
  if (!(Number.isFinite(req.timeoutMs) && req.timeoutMs > 0)) throw new SandboxError("invalid_request", `timeoutMs must be positive: ${req.timeoutMs}`);
  if (req.setup === true && req.readOnlyWorkspace === true) throw new SandboxError("invalid_request", "a setup run cannot have a read-only workspace");
  const { env, refused } = sandboxEnv(req.env, extraPathDirs);
  const access: RunAccess = req.setup === true ? "setup" : req.readOnlyWorkspace === true ? "read-only" : "command";
  const hasCache = req.session?.cacheDir !== undefined;
  const runtimeEnv = { ...req.session?.env, ...(hasCache ? stateEnv(access) : {}), ...(req.network === true ? {} : OFFLINE_ENV) };
  return {
    argv: [...req.argv],
    workspace: path.resolve(req.workspace),
    cwd: sandboxCwd(req.cwd ?? ""),
    env: withRuntimeEnv(env, runtimeEnv),
    refusedEnv: refused,
    network: req.network === true,
    readOnlyWorkspace: req.readOnlyWorkspace === true,
    access,
    timeoutMs: req.timeoutMs,
    limits: { ...DEFAULT_LIMITS, ...definedOnly(req.limits) },
  };
}

// The cwd comes from a model-driven tool; it is confined here as well as in the policy because a
// chdir outside the workspace would still be inside the sandbox, but would confuse every later path.
function sandboxCwd(rel: string): string {
  if (path.posix.isAbsolute(rel) || rel.includes("\0")) throw new SandboxError("invalid_request", `cwd must be relative to the workspace: ${rel}`);
  const joined = path.posix.join(SANDBOX_WORKSPACE, rel);
  if (joined !== SANDBOX_WORKSPACE && !joined.startsWith(`${SANDBOX_WORKSPACE}/`)) {
    throw new SandboxError("invalid_request", `cwd leaves the workspace: ${rel}`);
  }
  return joined.replace(/\/$/, "");
}

function definedOnly(limits: SandboxLimits | undefined): SandboxLimits {
  const out: SandboxLimits = {};
  for (const key of ["maxOutputBytes", "maxProcesses", "memoryBytes", "diskBytes", "cpuSeconds"] as const) {
    const v = limits?.[key];
    if (v === undefined) continue;
    if (!(Number.isInteger(v) && v > 0)) throw new SandboxError("invalid_request", `limits.${key} must be a positive integer: ${v}`);
    out[key] = v;
  }
  return out;
}
