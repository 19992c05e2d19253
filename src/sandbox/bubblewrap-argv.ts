import { SANDBOX_HOME } from "./env-policy.js";
import { SANDBOX_WORKSPACE, type PreparedRun } from "./prepare-run.js";
import { RUN_DISK_DIR } from "./layer-mounter.js";
import { SANDBOX_HOSTNAME } from "./sandbox-hosts.js";
import type { Mount } from "./toolchain-binding.js";
import { deviceNodeArgs } from "./device-nodes.js";

/** What the builder needs to know about the host; gathered once by host-layout.ts, so this file stays pure. */
export interface BwrapHost {
  /** Toolchain files outside /usr (toolchain-binding.ts), applied after the system mounts. */
  mounts: Mount[];
  /** The workspace has a real `.git` (directory or gitfile, not a symlink) to re-bind read-only. */
  hasGit: boolean;
  /** Host path of the generated hosts file (sandbox-hosts.ts), bound as /etc/hosts in every run. */
  hostsFile: string;
  /** Absolute path of prlimit inside the sandbox (it lives under /usr, which is bound). */
  prlimit: string;
  /**
   * When set, bwrap reports its child's pid on `info` and holds the sandbox, fully set up but before
   * its first fork, until a byte arrives on `block`: the window in which the child joins a cgroup.
   */
  handshakeFds?: { info: number; block: number };
  /** Private /dev nodes to bind over the host's (device-nodes.ts); set when Patchgate runs as root. */
  deviceNodes?: string | null;
}

// Bound in every run, when present: user and group names (git, whoami and getpass look the uid up),
// the loader cache (libraries outside the default search path), and /etc/alternatives, without
// which Debian's awk, cc and java are dangling symlinks. None of them holds a secret.
const ETC_ALWAYS = ["/etc/passwd", "/etc/group", "/etc/ld.so.cache", "/etc/alternatives"];

// Bound only for a networked run (the setup step): CA certificates, since TLS runs end to end through
// the egress proxy. No resolver configuration: the sandbox has no DNS server to ask, names are resolved
// by the proxy on the host. Never the host's /etc/hosts (see sandbox-hosts.ts). Deliberately not
// /etc/ssl as a whole (ssl/private holds keys readable by uid 0, which the sandbox user maps to when
// Patchgate runs as root), nor /etc/npmrc or /etc/pip.conf, which may hold registry tokens.
const ETC_NETWORK = ["/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/tls/certs", "/etc/pki/ca-trust"];

function mountArgs(m: Mount): string[] {
  switch (m.kind) {
    case "ro-bind":
      return ["--ro-bind", m.path, m.path];
    case "symlink":
      return ["--symlink", m.target, m.path];
    case "bind":
      return [m.readOnly ? "--ro-bind" : "--bind", m.source, m.path];
    case "mask-dir":
      // An empty tmpfs made read-only: the directory exists and shows nothing.
      return ["--size", "4096", "--tmpfs", m.path, "--remount-ro", m.path];
  }
}

/** What runs as the sandbox's first process: its environment, working directory and whether it is pid 1. */
export interface BwrapInside {
  env: Record<string, string>;
  cwd: string;
  /**
   * The first process is pid 1 itself, without bwrap's reaper: the long-lived form's supervisor
   * (supervisor-script.ts), which reaps and which nothing inside can signal.
   */
  asPid1?: boolean;
}

/**
 * bwrap's arguments (without the `bwrap` itself) for one run. Order matters: bwrap applies the mount operations in
 * sequence, so `.git` is re-bound read-only after the writable workspace, and the root is made
 * read-only last (writes to `/` or `../` from the workspace then fail loudly instead of landing on
 * a throwaway tmpfs).
 */
export function buildBubblewrapArgv(run: PreparedRun, host: BwrapHost): string[] {
  return [...bubblewrapSetup(run, host, { env: run.env, cwd: run.cwd }), "--", ...prlimitArgv(host.prlimit, run.limits), ...run.argv];
}

/** Everything before the `--` that ends bwrap's options: namespaces, mounts, environment. */
export function bubblewrapSetup(run: PreparedRun, host: BwrapHost, inside: BwrapInside): string[] {
  // Every run has its own network namespace, networked ones too: their only way out is the egress
  // proxy's socket (egress/), never the host's interfaces.
  const args = ["--unshare-all"];
  if (host.handshakeFds) args.push("--info-fd", String(host.handshakeFds.info), "--block-fd", String(host.handshakeFds.block));
  if (inside.asPid1) args.push("--as-pid-1");
  // The process dies with Patchgate, cannot reach our terminal (TIOCSTI), and keeps no capability:
  // when Patchgate runs as root, uid 0 inside would otherwise hold CAP_SYS_ADMIN in its namespace.
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", SANDBOX_HOSTNAME);
  args.push("--clearenv");
  for (const [k, v] of Object.entries(inside.env)) args.push("--setenv", k, v);

  args.push("--ro-bind", "/usr", "/usr");
  for (const dir of ["bin", "lib", "lib64", "sbin"]) args.push("--symlink", `usr/${dir}`, `/${dir}`);
  args.push("--proc", "/proc", "--dev", "/dev", ...deviceNodeArgs(host.deviceNodes));
  // /tmp and HOME live in RAM: files there are memory that no per-process limit counts, and disk
  // the run writes. The smaller of the two limits is their size.
  const tmpBytes = Math.min(run.limits.memoryBytes, run.limits.diskBytes);
  args.push("--size", String(tmpBytes), "--tmpfs", "/tmp", "--dir", SANDBOX_HOME);
  if (!run.readOnlyWorkspace) args.push("--dir", RUN_DISK_DIR);
  for (const p of ETC_ALWAYS) args.push("--ro-bind-try", p, p);
  args.push("--ro-bind", host.hostsFile, "/etc/hosts");
  if (run.network) for (const p of ETC_NETWORK) args.push("--ro-bind-try", p, p);
  for (const m of host.mounts) args.push(...mountArgs(m));

  args.push(run.readOnlyWorkspace ? "--ro-bind" : "--bind", run.workspace, SANDBOX_WORKSPACE);
  if (host.hasGit) args.push("--ro-bind", `${run.workspace}/.git`, `${SANDBOX_WORKSPACE}/.git`);
  args.push("--remount-ro", "/");
  args.push("--chdir", inside.cwd);
  return args;
}

/**
 * Limits are set by the first process inside the sandbox, not on bwrap: RLIMIT_NPROC is then
 * counted in the sandbox's own user namespace (only its processes), not across the host uid.
 * Memory is RLIMIT_DATA, per process: private writable memory actually committed (heap, anonymous
 * maps), not address space. RLIMIT_AS would also count reservations: node reserves ~0.8 GB of
 * address space at start and each WebAssembly memory 8–10 GB, which fail under any practical AS
 * limit while using almost no memory. Shared mappings are not counted (hence the sized /tmp).
 * Docker's --memory (a cgroup) counts the whole container's resident memory instead.
 * File size (RLIMIT_FSIZE) caps any one file at the disk limit, at once, wherever it is written;
 * the total is the size of the run's layer (run-overlay.ts). CPU time (RLIMIT_CPU) is per process: SIGXCPU
 * at the soft limit, SIGKILL a second later for a process that catches it.
 */
export function prlimitArgv(prlimit: string, limits: PreparedRun["limits"]): string[] {
  const { cpuSeconds, diskBytes } = limits;
  return [prlimit, `--nproc=${limits.maxProcesses}`, `--data=${limits.memoryBytes}`, `--fsize=${diskBytes}`, `--cpu=${cpuSeconds}:${cpuSeconds + 1}`, "--"];
}
