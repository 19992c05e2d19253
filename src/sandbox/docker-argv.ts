import { SANDBOX_WORKSPACE, type PreparedRun } from "./prepare-run.js";
import type { Mount } from "./toolchain-binding.js";
import { hostEnvironment } from "../process/index.js";

export interface DockerRunTarget {
  image: string;
  /** Container name, so a timeout or abort can `docker kill` it: killing the client leaves the container running. */
  name: string;
  /** uid:gid the command runs as, normally Patchgate's own, so files it writes in the workspace stay ours. */
  user: string;
  hasGit: boolean;
  /** The session's toolchains, their masked credential files and its cache (session-mounts.ts). */
  mounts?: Mount[];
}

function volumeArgs(m: Mount): string[] {
  switch (m.kind) {
    case "ro-bind":
      return ["-v", `${m.path}:${m.path}:ro`];
    case "bind":
      return ["-v", `${m.source}:${m.path}${m.readOnly ? ":ro" : ""}`];
    case "mask-dir":
      return ["--tmpfs", `${m.path}:ro,size=4k`];
    case "symlink":
      // Only the node binding makes links, and the image brings its own node.
      return [];
  }
}

const MIB = 1024 * 1024;

/**
 * `docker run` arguments (without `docker` itself) for one run. Only the allowlisted environment
 * crosses, as `-e` pairs; the client's own environment never reaches the container.
 */
export function buildDockerArgv(run: PreparedRun, target: DockerRunTarget): string[] {
  const memory = `${Math.ceil(run.limits.memoryBytes / MIB)}m`;
  const args = ["run", "--rm", "--name", target.name];
  // No network, networked runs too: the setup step reaches the registries through the egress proxy's
  // socket (egress/), bound in as a volume; Docker's bridge would open the host's networks to it.
  args.push("--network", "none");
  // /tmp allows exec (go test and many test runners build binaries there), unlike Docker's default
  // tmpfs; it is RAM, so the smaller of the memory and disk limits is its size, as with bubblewrap.
  const tmpBytes = Math.min(run.limits.memoryBytes, run.limits.diskBytes);
  args.push("--read-only", "--tmpfs", `/tmp:rw,exec,nosuid,mode=1777,size=${tmpBytes}`);
  args.push("--pids-limit", String(run.limits.maxProcesses));
  // Swap equal to memory: the limit is the limit, not a hint that slows into swapping.
  args.push("--memory", memory, "--memory-swap", memory, "--cpus", "1");
  // The same per-process file-size and CPU-time limits as bubblewrap's prlimit.
  const { cpuSeconds, diskBytes } = run.limits;
  args.push("--ulimit", `fsize=${diskBytes}:${diskBytes}`, "--ulimit", `cpu=${cpuSeconds}:${cpuSeconds + 1}`);
  args.push("--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--user", target.user);
  for (const [k, v] of Object.entries(run.env)) args.push("-e", `${k}=${v}`);
  for (const m of target.mounts ?? []) args.push(...volumeArgs(m));
  args.push("-v", `${run.workspace}:${SANDBOX_WORKSPACE}${run.readOnlyWorkspace ? ":ro" : ""}`);
  if (target.hasGit) args.push("-v", `${run.workspace}/.git:${SANDBOX_WORKSPACE}/.git:ro`);
  args.push("-w", run.cwd);
  return [...args, target.image, ...run.argv];
}

/** The docker client's own environment: how to reach the engine, nothing else of Patchgate's. */
export function dockerClientEnv(env: NodeJS.ProcessEnv = hostEnvironment()): Record<string, string> {
  const out: Record<string, string> = { PATH: "/usr/local/bin:/usr/bin:/bin" };
  for (const key of ["HOME", "DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY"]) {
    const value = env[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
