import { readFile, statfs } from "node:fs/promises";
import { runProcess } from "../process/run-process.js";
import { applyMerge, planMerge } from "./overlay-merge.js";
import { SANDBOX_WORKSPACE } from "./prepare-run.js";
import { SandboxError } from "./sandbox-error.js";

/**
 * Where each command's writable layer lives inside a long-lived sandbox: a tmpfs mounted afresh per
 * command, sized to the disk limit. bwrap makes the directory; the mounts are made from outside.
 */
export const RUN_DISK_DIR = "/run/patchgate-disk";

/** One page over the limit: a writer that would cross it is stopped there (ENOSPC), and so is seen to have tried. */
const PAGE = 4096;

/**
 * Files and directories one command may create, per byte of its limit: a run of empty files uses no
 * page of the tmpfs, but each becomes an inode on the host's disk when its writes are kept.
 */
const BYTES_PER_INODE = 1024;

/** What is needed to reach a running sandbox's mount namespace from the host. */
export interface OverlayTarget {
  /** Absolute path of nsenter (util-linux). */
  nsenter: string;
  /** Host pid of the sandbox's pid 1 (the supervisor): its mount namespace and root are the sandbox's. */
  supervisorPid: number;
  /**
   * The user namespace Patchgate made around bwrap when it runs unprivileged (unshare), entered to
   * hold the right to mount there; null as root, whose own namespace already holds it.
   */
  userNs: string | null;
  /** The workspace has a .git, bound read-only again on top of the overlay. */
  hasGit: boolean;
}

/** The host's view of a path inside the sandbox (what the supervisor sees). */
function insideSandbox(t: OverlayTarget, p: string): string {
  return `/proc/${t.supervisorPid}/root${p}`;
}

const upperDir = (t: OverlayTarget): string => insideSandbox(t, `${RUN_DISK_DIR}/upper`);
const mergedDir = (t: OverlayTarget): string => insideSandbox(t, SANDBOX_WORKSPACE);

/** The tmpfs limits for a disk limit of `bytes`: its size and how many inodes it may hold. */
function layerLimits(bytes: number): { sizeBytes: number; inodes: number } {
  return { sizeBytes: Math.ceil(bytes / PAGE) * PAGE + PAGE, inodes: Math.max(1024, Math.floor(bytes / BYTES_PER_INODE)) };
}

// Arguments come positionally, never inside the script text.
const MOUNT_SCRIPT = [
  "set -e",
  `D=${RUN_DISK_DIR}`,
  // What the previous command's layer held was kept until its writes were copied out.
  'if grep -q " $D " /proc/self/mounts; then umount "$D"; fi',
  'mount -t tmpfs -o "size=$1,nr_inodes=$2,mode=0700" patchgate-disk "$D"',
  'mkdir "$D/upper" "$D/work"',
  `mount -t overlay -o "lowerdir=${SANDBOX_WORKSPACE},upperdir=$D/upper,workdir=$D/work,userxattr" patchgate-run ${SANDBOX_WORKSPACE}`,
  `if [ "$3" = 1 ]; then mount --bind -o ro ${SANDBOX_WORKSPACE}/.git ${SANDBOX_WORKSPACE}/.git; fi`,
].join("\n");

const UNMOUNT_SCRIPT = ["set -e", `if [ "$1" = 1 ]; then umount ${SANDBOX_WORKSPACE}/.git; fi`, `umount ${SANDBOX_WORKSPACE}`].join("\n");

/** Puts a fresh writable layer of `limitBytes` over the workspace, for the next command. */
export async function mountRunOverlay(t: OverlayTarget, limitBytes: number): Promise<void> {
  const { sizeBytes, inodes } = layerLimits(limitBytes);
  await inNamespace(t, MOUNT_SCRIPT, [String(sizeBytes), String(inodes), t.hasGit ? "1" : "0"]);
}

/** Takes the layer off the workspace again; its files stay readable at upperDir until the next mount. */
async function unmountRunOverlay(t: OverlayTarget): Promise<void> {
  await inNamespace(t, UNMOUNT_SCRIPT, [t.hasGit ? "1" : "0"]);
}

/** Whether the command tried to write more than `limitBytes` (bytes or inodes). */
async function layerExceeded(t: OverlayTarget, limitBytes: number): Promise<boolean> {
  const s = await statfs(insideSandbox(t, RUN_DISK_DIR));
  return (s.blocks - s.bfree) * s.bsize > limitBytes || s.ffree === 0;
}

async function inNamespace(t: OverlayTarget, script: string, args: string[]): Promise<void> {
  // The sandbox's own root and working directory too (its mount namespace's root is the host's old
  // one), and its pid namespace, so that its /proc shows the mount table to mount and umount.
  const user = t.userNs ? [`--user=${t.userNs}`, "--preserve-credentials"] : [];
  const ns = ["--target", String(t.supervisorPid), ...user, "--mount", "--pid", "--root", "--wd"];
  const r = await runProcess({
    command: t.nsenter,
    args: [...ns, "--", "/bin/sh", "-c", script, "patchgate-disk", ...args],
    env: { PATH: "/usr/bin:/bin" },
    cwd: "/",
  });
  if (r.exitCode !== 0) {
    const why = r.stderr.toString("utf8").trim().split("\n").pop() || `exit ${r.exitCode ?? r.signal}`;
    throw new SandboxError("spawn_failed", `cannot set up the run's disk layer: ${why}`);
  }
}

/** What a command's layer came to: over the limit (nothing kept), or kept and how much the workspace grew by it. */
export interface LayerOutcome {
  exceeded: boolean;
  grownBytes: number;
}

/**
 * After a command: judges its layer against `limitBytes` and copies what it wrote into the workspace
 * when it kept within it. A command over the limit keeps nothing: the workspace is as before it ran.
 * The limit is judged on the pages and inodes the layer holds (a writer that crossed it met ENOSPC),
 * on the bytes the copy would write (a sparse file holds no pages for its holes), and on how much the
 * workspace would grow, against what the session's earlier runs left of the limit.
 */
export async function settleRunOverlay(t: OverlayTarget, limits: RunDiskLimits, workspace: string): Promise<LayerOutcome> {
  const exceeded = await layerExceeded(t, limits.runBytes);
  const plan = exceeded ? null : await planMerge(upperDir(t), mergedDir(t), workspace);
  await unmountRunOverlay(t);
  const grownBytes = plan === null ? 0 : plan.bytes - plan.replaced;
  if (plan === null || plan.bytes > limits.runBytes || grownBytes > limits.leftBytes) return { exceeded: true, grownBytes: 0 };
  await applyMerge(plan, upperDir(t), workspace);
  return { exceeded: false, grownBytes };
}

/** What one command may write (its layer), and how much the workspace may still grow by what it keeps. */
export interface RunDiskLimits {
  runBytes: number;
  leftBytes: number;
}

/**
 * unshare's arguments when Patchgate is not root: bwrap starts in a user namespace of Patchgate's own
 * (mapped to its uid), which nsenter enters later to mount the layer; only the uid Patchgate runs as
 * is mapped, so the sandbox holds no other host identity. As root the host's namespace holds the right.
 */
export const OWN_USER_NS = ["--user", "--map-root-user", "--"];

/** The binaries that mount a layer per command: nsenter always, unshare when not root. */
export function overlayTools(host: { nsenter?: string | null; unshare?: string | null }): { nsenter: string; unshare: string | null } {
  const unprivileged = process.getuid?.() !== 0;
  if (!host.nsenter || (unprivileged && !host.unshare)) {
    throw new SandboxError("spawn_failed", "the disk limit needs nsenter and unshare (util-linux) under /usr: a writable run is not started without it");
  }
  return { nsenter: host.nsenter, unshare: unprivileged ? (host.unshare ?? null) : null };
}

/** Host pid of the sandbox's pid 1: bwrap's (the started process's) only child. */
export async function supervisorPid(bwrap: { pid?: number }): Promise<number> {
  const children = await readFile(`/proc/${bwrap.pid}/task/${bwrap.pid}/children`, "utf8");
  const pid = Number(children.trim().split(/\s+/)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("bwrap has no sandbox process");
  return pid;
}
