import { BubblewrapSession } from "./bubblewrap-session.js";
import { bubblewrapLayout, longLivedCommand, prepareBubblewrapRun } from "./bubblewrap-layout.js";
import { decodeLimitSignal } from "./disk-quota.js";
import { withEgress, type EgressSettings } from "./egress/egress-run.js";
import type { BwrapHostSetup } from "./host-layout.js";
import { LongLivedSandbox } from "./long-lived-sandbox.js";
import { SandboxError } from "./sandbox-error.js";
import { SUPERVISOR_SYSCALLS } from "./supervisor-script.js";
import { RegistryClientFiles } from "./egress/registry-client-files.js";
import type { Sandbox, SandboxResult, SandboxRunRequest, SessionSandbox } from "./types.js";

/**
 * Linux namespaces through bubblewrap. Each run gets fresh user/pid/net/ipc/uts/cgroup namespaces,
 * no capabilities, a read-only /usr, private /tmp and HOME, and the workspace at /workspace as the
 * only writable host path (with its .git read-only on top), written through a layer of the disk
 * limit's size (run-overlay.ts). Processes and memory are capped by prlimit inside; as root, where
 * the kernel ignores RLIMIT_NPROC, each run also gets its own pids cgroup.
 * A run here is the long-lived sandbox (long-lived-sandbox.ts) started for one command: its
 * supervisor is what mounts and settles the run's layer. `openSession` keeps one for a session's
 * commands instead (bubblewrap-session.ts).
 */
export class BubblewrapSandbox implements Sandbox {
  readonly backend = "bubblewrap" as const;
  readonly writesByReplacing = true;
  /** The registries' client files (cargo's config), shared by the copies made for a session's token. */
  private readonly clientFiles: RegistryClientFiles;

  /**
   * `caBundle`: the host path of the CA bundle made at start (ca-bundle.ts), for networked runs;
   * `registries`: the operator's private registries, reached by networked runs through their gateway;
   * `privateDestinations`: the names networked runs may reach on a private address once allowed.
   */
  constructor(
    private readonly host: BwrapHostSetup,
    private readonly opts: EgressSettings & { installationToken?: string; clientFiles?: RegistryClientFiles } = {},
  ) {
    this.clientFiles = opts.clientFiles ?? new RegistryClientFiles(opts.registries ?? []);
  }

  withInstallationToken(token: string): BubblewrapSandbox {
    return new BubblewrapSandbox(this.host, { ...this.opts, installationToken: token, clientFiles: this.clientFiles });
  }

  openSession(): SessionSandbox {
    return new BubblewrapSession(this, this.host, () => this.clientFiles.mounts());
  }

  async run(req: SandboxRunRequest): Promise<SandboxResult> {
    const prepared = await prepareBubblewrapRun(this.host, req);
    const syscalls = SUPERVISOR_SYSCALLS[process.arch];
    const perl = this.host.perl;
    if (!perl || syscalls === undefined) {
      throw new SandboxError("spawn_failed", `bubblewrap runs need /usr/bin/perl and a known architecture (this is ${process.arch}) for their supervisor`);
    }
    // The node running Patchgate is visible inside (under /usr, or bound by nodeBinding): it runs the forwarder.
    const egress = {
      allowHosts: req.allowHosts,
      packageRegistries: req.packageRegistries !== false,
      node: this.host.node?.binary ?? process.execPath,
      caBundle: this.opts.caBundle,
      registries: this.opts.registries,
      privateDestinations: this.opts.privateDestinations,
      installationToken: this.opts.installationToken,
      clientFiles: this.clientFiles,
    };
    return withEgress(prepared, egress, async (run, egressMounts) => {
      const layout = await bubblewrapLayout(this.host, req, run, egressMounts);
      const box = await LongLivedSandbox.start(this.host, run, layout, perl, syscalls);
      try {
        const result = await box.run(longLivedCommand(this.host, run, req));
        if (result === null) throw new SandboxError("spawn_failed", `the sandbox could not start ${run.argv[0]}`);
        return decodeLimitSignal(result);
      } finally {
        await box.close();
      }
    });
  }
}
