import { buildBubblewrapArgv } from "./bubblewrap-argv.js";
import { BubblewrapSession } from "./bubblewrap-session.js";
import { HANDSHAKE_FDS, joinCgroupThenRelease } from "./cgroup-handshake.js";
import { closingDescriptors } from "./close-fds.js";
import { decodeLimitSignal } from "./disk-quota.js";
import { withEgress } from "./egress/egress-run.js";
import { refusedEnvNotice } from "./env-policy.js";
import { bubblewrapLayout, prepareBubblewrapRun } from "./bubblewrap-layout.js";
import type { BwrapHostSetup } from "./host-layout.js";
import { PidsCgroup } from "./pids-cgroup.js";
import { supervise } from "./supervise.js";
import type { Sandbox, SandboxResult, SandboxRunRequest, SessionSandbox } from "./types.js";

/**
 * Linux namespaces through bubblewrap. Each run gets fresh user/pid/net/ipc/uts/cgroup namespaces,
 * no capabilities, a read-only /usr, private /tmp and HOME, and the workspace at /workspace as the
 * only writable host path (with its .git read-only on top). Processes and memory are capped by prlimit
 * inside; as root, where the kernel ignores RLIMIT_NPROC, each run also gets its own pids cgroup.
 * `openSession` keeps one such sandbox for a session's commands instead (bubblewrap-session.ts).
 */
export class BubblewrapSandbox implements Sandbox {
  readonly backend = "bubblewrap" as const;

  constructor(private readonly host: BwrapHostSetup) {}

  openSession(): SessionSandbox {
    return new BubblewrapSession(this, this.host);
  }

  async run(req: SandboxRunRequest): Promise<SandboxResult> {
    const prepared = await prepareBubblewrapRun(this.host, req);
    // The node running Patchgate is visible inside (under /usr, or bound by nodeBinding): it runs the forwarder.
    const egress = { allowHosts: req.allowHosts, node: this.host.node?.binary ?? process.execPath };
    return withEgress(prepared, egress, async (run, egressMounts) => {
      const mode = this.host.processLimit;
      const handshakeFds = mode.kind === "cgroup" ? HANDSHAKE_FDS : undefined;
      const layout = await bubblewrapLayout(this.host, req, run, egressMounts);
      const args = buildBubblewrapArgv(run, { ...layout, handshakeFds });
      // bwrap passes on every descriptor it gets: it starts with stdio and its handshake pipes only.
      const start = closingDescriptors(this.host.bash, handshakeFds ? Math.max(handshakeFds.info, handshakeFds.block) : 2, this.host.bwrap, args);
      // +1: bwrap's outer process, which only waits for the sandbox, joins the cgroup too (see cgroup-handshake.ts).
      const cgroup = mode.kind === "cgroup" ? await PidsCgroup.create(mode, run.limits.maxProcesses + 1) : null;
      try {
        const result = await supervise({
          command: start.command,
          args: start.args,
          // bwrap itself gets no secrets either: the sandbox can read its pid 1's /proc/1/environ.
          hostEnv: { PATH: "/usr/bin:/bin" },
          hostCwd: "/",
          timeoutMs: run.timeoutMs,
          maxOutputBytes: run.limits.maxOutputBytes,
          signal: req.signal,
          onOutput: req.onOutput,
          stderrPrefix: refusedEnvNotice(run.refusedEnv),
          killExtra: cgroup ? () => cgroup.killAll() : undefined,
          extraPipes: cgroup ? 2 : 0,
          afterSpawn: cgroup ? (child) => joinCgroupThenRelease(child, cgroup) : undefined,
          diskQuota: { path: run.workspace, maxBytes: run.limits.diskBytes },
        });
        return decodeLimitSignal(result);
      } finally {
        await cgroup?.remove();
      }
    });
  }
}
