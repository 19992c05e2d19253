import type { Readable, Writable } from "node:stream";
import { startProcess, type StartedProcess } from "../process/index.js";
import { SANDBOX_WORKSPACE } from "./prepare-run.js";
import { SandboxError } from "./sandbox-error.js";
import { SupervisorChannel } from "./supervisor-channel.js";

/** Where each command's writable layer lives inside the sandbox; bwrap makes the directory. */
export const RUN_DISK_DIR = "/run/patchgate-disk";

/** mount(2) and umount2(2), which the mounter calls through Perl's `syscall`. */
export interface MountSyscalls {
  mount: number;
  umount2: number;
}

export const MOUNT_SYSCALLS: Partial<Record<NodeJS.Architecture, MountSyscalls>> = {
  x64: { mount: 165, umount2: 166 },
  arm64: { mount: 40, umount2: 39 },
};

/**
 * The mounter: one Perl process per sandbox, in its mount namespace (and its user namespace when
 * Patchgate is not root) but not in its pid namespace, so no command sees or signals it and the
 * supervisor's kill of everything after a command does not reach it. It makes no decision: it mounts
 * what the host asks, line by line, with the syscalls themselves (mount(8) costs a process and a
 * parse of the mount table per call). Request `mount <bytes> <inodes> <git>` or `umount <git>`;
 * answer `ok` or `err <what failed>`. EOF ends it.
 * The run's `.git` is the clone's own, bound from below the overlay (kept aside in the layer's folder
 * while the overlay is put on): through the overlay, a file the host adds to `.git` during the run
 * could stay unseen behind the overlay's cached lookups.
 * MS_BIND 4096, MS_REMOUNT 32, MS_RDONLY 1, MS_NOSUID 2, MS_NODEV 4; EINVAL from umount2 is "not mounted".
 */
const MOUNTER_PERL = String.raw`
use strict;
my ($MOUNT, $UMOUNT2, $D, $WS) = @ARGV;
$| = 1;
sub sys_mount { my ($src, $dst, $type, $flags, $data) = @_;
  return syscall($MOUNT + 0, $src, $dst, $type, $flags + 0, defined $data ? $data : 0) == 0; }
sub sys_umount { return syscall($UMOUNT2 + 0, $_[0], 0) == 0 || $!{EINVAL}; }
sub layer { my ($bytes, $inodes, $git) = @_;
  sys_umount($D) or return "umount $D: $!";
  sys_mount("patchgate-disk", $D, "tmpfs", 6, "size=$bytes,nr_inodes=$inodes,mode=0700") or return "tmpfs: $!";
  mkdir("$D/upper", 0755) && mkdir("$D/work", 0700) && mkdir("$D/git", 0700) or return "mkdir: $!";
  if ($git) { sys_mount("$WS/.git", "$D/git", 0, 4096) or return "keep .git: $!"; }
  sys_mount("patchgate-run", $WS, "overlay", 6, "lowerdir=$WS,upperdir=$D/upper,workdir=$D/work,userxattr") or return "overlay: $!";
  if ($git) { sys_mount("$D/git", "$WS/.git", 0, 4096) or return "bind .git: $!";
    sys_mount("$D/git", "$WS/.git", 0, 4096 | 32 | 1 | 2 | 4) or return "read-only .git: $!"; }
  return ""; }
sub unlayer { my ($git) = @_;
  if ($git) { syscall($UMOUNT2 + 0, "$WS/.git", 0) == 0 or return "umount .git: $!"; }
  syscall($UMOUNT2 + 0, $WS, 0) == 0 or return "umount overlay: $!";
  if ($git) { syscall($UMOUNT2 + 0, "$D/git", 0) == 0 or return "umount kept .git: $!"; }
  return ""; }
while (my $line = <STDIN>) { chomp $line; my ($op, @a) = split / /, $line;
  my $err = $op eq "mount" ? layer(@a) : $op eq "umount" ? unlayer(@a) : "unknown request";
  print $err eq "" ? "ok\n" : "err $err\n"; }
`;

/** What the host needs to reach a running sandbox: nsenter, the sandbox's pid 1, Patchgate's own user namespace if any. */
export interface MounterTarget {
  nsenter: string;
  perl: string;
  syscalls: MountSyscalls;
  supervisorPid: number;
  /** The user namespace Patchgate made around bwrap when it is not root; null as root. */
  userNs: string | null;
}

export class LayerMounter {
  private constructor(
    private readonly child: StartedProcess,
    private readonly channel: SupervisorChannel,
  ) {}

  static start(t: MounterTarget): LayerMounter {
    // The sandbox's own root and working directory: its mount namespace's root is the host's old one.
    const user = t.userNs ? [`--user=${t.userNs}`, "--preserve-credentials"] : [];
    const args = ["--target", String(t.supervisorPid), ...user, "--mount", "--root", "--wd", "--", t.perl, "-e", MOUNTER_PERL];
    const child = startProcess({
      command: t.nsenter,
      args: [...args, String(t.syscalls.mount), String(t.syscalls.umount2), RUN_DISK_DIR, SANDBOX_WORKSPACE],
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
    });
    (child.stderr as Readable).resume();
    return new LayerMounter(child, new SupervisorChannel(child, child.stdout as Readable));
  }

  /** A fresh layer of `bytes` and `inodes` over the workspace, `.git` read-only on top when there is one. */
  mount(bytes: number, inodes: number, git: boolean): Promise<void> {
    return this.ask(`mount ${bytes} ${inodes} ${git ? 1 : 0}`);
  }

  /** Takes the layer off the workspace; its files stay where the host reads them until the next mount. */
  unmount(git: boolean): Promise<void> {
    return this.ask(`umount ${git ? 1 : 0}`);
  }

  close(): void {
    (this.child.stdin as Writable).end();
    this.child.kill("SIGKILL");
  }

  private async ask(request: string): Promise<void> {
    (this.child.stdin as Writable).write(`${request}\n`);
    const answer = await this.channel.next();
    if (answer === "ok") return;
    throw new SandboxError("spawn_failed", `cannot set up the run's disk layer: ${answer === null ? "the mounter is gone" : answer.replace(/^err /, "")}`);
  }
}
