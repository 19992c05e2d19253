import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { dockerClientEnv } from "./docker-argv.js";
import { DockerSandbox } from "./docker.js";
import { which } from "../toolchain/layouts/fs.js";
import { detectBwrapHost } from "./host-layout.js";
import { supervise } from "./supervise.js";
import type { EgressSettings } from "./egress/egress-run.js";
import type { Sandbox } from "./types.js";

export type SandboxPreference = "auto" | "bubblewrap" | "docker";

/** `EgressSettings`: the CA bundle made at start (ca-bundle.ts), the operator's private registries and private destinations, for networked runs. */
export interface SelectSandboxOptions extends EgressSettings {
  /** Image for the docker backend (repo config `sandbox.image`). */
  image?: string;
  /** Client binaries, by name on PATH or absolute; tests point them at missing files. */
  docker?: string;
  bwrap?: string;
  /** How long `docker info` may take before the engine counts as absent. */
  dockerProbeMs?: number;
}

/** Either a working sandbox or why there is none. There is no unsandboxed fallback, on purpose. */
export type SandboxSelection = { sandbox: Sandbox; reason?: undefined } | { sandbox: null; reason: string };

/**
 * auto = docker when an engine answers, else bubblewrap when it can run `true`, else none with both
 * reasons. Both are asked at once, since neither answer depends on the other; bubblewrap's is used
 * only when docker's is no.
 */
export async function selectSandbox(pref: SandboxPreference, opts: SelectSandboxOptions = {}): Promise<SandboxSelection> {
  if (pref === "docker") return tryDocker(opts);
  if (pref === "bubblewrap") return tryBubblewrap(opts);
  const bwrapAnswer = tryBubblewrap(opts).catch((e: Error): SandboxSelection => ({ sandbox: null, reason: `bubblewrap cannot start a sandbox: ${e.message}` }));
  const [docker, bwrap] = await Promise.all([tryDocker(opts), bwrapAnswer]);
  if (docker.sandbox) return docker;
  if (bwrap.sandbox) return bwrap;
  return { sandbox: null, reason: `no sandbox available — docker: ${docker.reason}; bubblewrap: ${bwrap.reason}` };
}

async function tryDocker(opts: SelectSandboxOptions): Promise<SandboxSelection> {
  const name = opts.docker ?? "docker";
  const docker = await which(name);
  if (!docker) return { sandbox: null, reason: `${name} client not found` };
  // The client alone is not enough (this is the common case on CI runners): the engine must answer.
  const info = await supervise({
    command: docker,
    args: ["info", "--format", "{{.ServerVersion}}"],
    hostEnv: dockerClientEnv(),
    timeoutMs: opts.dockerProbeMs ?? 2000,
    maxOutputBytes: 16 * 1024,
  }).catch((e: Error) => ({ exitCode: null, timedOut: false, stderr: e.message }));
  if (info.exitCode !== 0) {
    const why = info.timedOut ? "timed out" : firstLine(info.stderr) || `exit ${info.exitCode}`;
    return { sandbox: null, reason: `docker engine not reachable: ${why}` };
  }
  return { sandbox: new DockerSandbox({ docker, image: opts.image ?? "node:20-bookworm", ...egressSettings(opts) }) };
}

// Installed is not the same as usable: user namespaces may be disabled, or AppArmor may forbid them.
// Running `true` once through the real code path (argv, prlimit, cgroup) is the only honest check.
async function tryBubblewrap(opts: SelectSandboxOptions): Promise<SandboxSelection> {
  const host = await detectBwrapHost(opts.bwrap);
  if ("reason" in host) return { sandbox: null, reason: host.reason };
  const sandbox = new BubblewrapSandbox(host, egressSettings(opts));
  const workspace = await mkdtemp(path.join(os.tmpdir(), "patchgate-probe-"));
  try {
    const r = await sandbox.run({ argv: ["true"], workspace, timeoutMs: 10_000 });
    if (r.exitCode === 0) return { sandbox };
    return { sandbox: null, reason: `bubblewrap cannot start a sandbox: ${firstLine(r.stderr) || `exit ${r.exitCode}`}` };
  } catch (e) {
    return { sandbox: null, reason: `bubblewrap cannot start a sandbox: ${(e as Error).message}` };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function egressSettings(opts: SelectSandboxOptions): EgressSettings {
  return { caBundle: opts.caBundle, registries: opts.registries, privateDestinations: opts.privateDestinations };
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""
  );
}
