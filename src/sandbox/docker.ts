import { randomBytes } from "node:crypto";
import { runProcess } from "../process/index.js";
import { decodeLimitSignal } from "./disk-quota.js";
import { buildDockerArgv, dockerClientEnv } from "./docker-argv.js";
import { withEgress, type EgressSettings } from "./egress/egress-run.js";
import { refusedEnvNotice } from "./env-policy.js";
import { hasRealGit } from "./host-layout.js";
import { prepareRun } from "./prepare-run.js";
import { withSetupHome } from "./run-state.js";
import { sessionMounts } from "./session-mounts.js";
import { supervise } from "./supervise.js";
import { RegistryClientFiles } from "./egress/registry-client-files.js";
import type { Sandbox, SandboxResult, SandboxRunRequest } from "./types.js";

/** `EgressSettings`: the CA bundle, private registries and private destinations of networked runs. */
export interface DockerSandboxOptions extends EgressSettings {
  /** Absolute path of the docker client. */
  docker: string;
  image: string;
  /** The session's GitHub installation token, for registries whose credential it is. */
  installationToken?: string;
  /** The registries' client files (cargo's config), shared by the copies made for a session's token. */
  clientFiles?: RegistryClientFiles;
}

/**
 * One throwaway container per run: no network (the setup step gets the egress proxy, whose forwarder
 * needs `node` in the image), read-only root, the workspace at /workspace as the only writable bind,
 * cgroup limits on pids, memory and CPU.
 */
export class DockerSandbox implements Sandbox {
  readonly backend = "docker" as const;

  private readonly clientFiles: RegistryClientFiles;

  constructor(private readonly opts: DockerSandboxOptions) {
    this.clientFiles = opts.clientFiles ?? new RegistryClientFiles(opts.registries ?? []);
  }

  withInstallationToken(token: string): DockerSandbox {
    return new DockerSandbox({ ...this.opts, installationToken: token, clientFiles: this.clientFiles });
  }

  async run(req: SandboxRunRequest): Promise<SandboxResult> {
    const prepared = await withSetupHome(prepareRun(req, req.session?.pathDirs), req.session?.cacheDir);
    const egress = {
      allowHosts: req.allowHosts,
      packageRegistries: req.packageRegistries !== false,
      node: "node",
      caBundle: this.opts.caBundle,
      registries: this.opts.registries,
      privateDestinations: this.opts.privateDestinations,
      installationToken: this.opts.installationToken,
      clientFiles: this.clientFiles,
    };
    return withEgress(prepared, egress, async (run, egressMounts) => {
      const name = `patchgate-${randomBytes(6).toString("hex")}`;
      const args = buildDockerArgv(run, {
        image: this.opts.image,
        name,
        user: `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`,
        hasGit: await hasRealGit(run.workspace),
        mounts: [...(await sessionMounts(req.session, run.access)), ...egressMounts],
      });
      const result = await supervise({
        command: this.opts.docker,
        args,
        hostEnv: dockerClientEnv(),
        timeoutMs: run.timeoutMs,
        maxOutputBytes: run.limits.maxOutputBytes,
        signal: req.signal,
        onOutput: req.onOutput,
        stderrPrefix: refusedEnvNotice(run.refusedEnv),
        killExtra: () => this.kill(name),
        diskQuota: { path: run.workspace, maxBytes: run.limits.diskBytes },
      });
      return decodeLimitSignal(result);
    });
  }

  // The container belongs to the engine, not to our process group; it has to be killed by name.
  private async kill(name: string): Promise<void> {
    await runProcess({ command: this.opts.docker, args: ["kill", name], env: dockerClientEnv() }).catch(() => undefined);
  }
}
