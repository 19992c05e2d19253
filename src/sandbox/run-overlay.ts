import { readFile, statfs } from "node:fs/promises";
import { MOUNT_SYSCALLS, RUN_DISK_DIR, type LayerMounter, type MountSyscalls } from "./layer-mounter.js";
import { withoutIgnored } from "./ignored-writes.js";
import { applyMerge, planMerge } from "./overlay-merge.js";
import { SANDBOX_WORKSPACE } from "./prepare-run.js";
import { SandboxError } from "./sandbox-error.js";

/** One page over the limit: a writer that would cross it is stopped there (ENOSPC), and so is seen to have tried. */
const PAGE = 4096;

/**
 * Files and directories one command may create, per byte of its limit: a run of empty files uses no
 * page of the tmpfs, but each becomes an inode on the host's disk when its writes are kept.
 */
const BYTES_PER_INODE = 1024;

/** A running sandbox whose workspace is written through a layer per command. */
export interface OverlayTarget {
  mounter: LayerMounter;
  /** Host pid of the sandbox's pid 1 (the supervisor): its root is the sandbox's. */
  supervisorPid: number;
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

/** Puts a fresh writable layer of `limitBytes` over the workspace, for the next command. */
export async function mountRunOverlay(t: OverlayTarget, limitBytes: number): Promise<void> {
  const { sizeBytes, inodes } = layerLimits(limitBytes);
  await t.mounter.mount(sizeBytes, inodes, t.hasGit);
}

/** Whether the command tried to write more than `limitBytes` (bytes or inodes). */
async function layerExceeded(t: OverlayTarget, limitBytes: number): Promise<boolean> {
  const s = await statfs(insideSandbox(t, RUN_DISK_DIR));
  return (s.blocks - s.bfree) * s.bsize > limitBytes || s.ffree === 0;
}

/** What one command may write (its layer), and how much the workspace may still grow by what it keeps. */
export interface RunDiskLimits {
  runBytes: number;
  leftBytes: number;
}

/** What a command's layer came to: over the limit (nothing kept), or kept and how much the workspace grew by it. */
export interface LayerOutcome {
  exceeded: boolean;
  grownBytes: number;
  /** Special files the run made, which were not kept. */
  dropped: string[];
}

/**
 * After a command: judges its layer and copies what it wrote into the workspace when it kept within
 * the limits. A command over them keeps nothing: the workspace is as before it ran. Judged on the
 * pages and inodes the layer holds (a writer that crossed them met ENOSPC), on the bytes the copy
 * would write (a sparse file holds no pages for its holes), and on how much the workspace would grow,
 * against what the session's earlier runs left of the limit. With `discardIgnored`, what it wrote where
 * git ignores (build outputs, caches, installed dependencies) is not kept (withoutIgnored).
 */
export async function settleRunOverlay(
  t: OverlayTarget,
  limits: RunDiskLimits,
  workspace: string,
  discardIgnored?: (rels: readonly string[]) => Promise<Set<string>>,
): Promise<LayerOutcome> {
  const exceeded = await layerExceeded(t, limits.runBytes);
  const planned = exceeded ? null : await planMerge(upperDir(t), mergedDir(t), workspace);
  const plan = planned !== null && discardIgnored ? await withoutIgnored(planned, workspace, discardIgnored) : planned;
  await t.mounter.unmount(t.hasGit);
  const grownBytes = plan === null ? 0 : plan.bytes - plan.replaced;
  if (plan === null || plan.bytes > limits.runBytes || grownBytes > limits.leftBytes) return { exceeded: true, grownBytes: 0, dropped: [] };
  await applyMerge(plan, upperDir(t), workspace);
  return { exceeded: false, grownBytes, dropped: plan.dropped.sort() };
}

/**
 * unshare's arguments when Patchgate is not root: bwrap starts in a user namespace of Patchgate's own
 * (its uid mapped to uid 0 there, no other), which the mounter enters to mount the layer. As root the
 * host's namespace holds that right already.
 */
export const OWN_USER_NS = ["--user", "--map-root-user", "--"];

/** What mounts a layer per command: nsenter always, unshare when not root, and the syscall numbers. */
export function overlayTools(host: { nsenter?: string | null; unshare?: string | null }): { nsenter: string; unshare: string | null; syscalls: MountSyscalls } {
  const unprivileged = process.getuid?.() !== 0;
  const syscalls = MOUNT_SYSCALLS[process.arch];
  if (!host.nsenter || (unprivileged && !host.unshare) || syscalls === undefined) {
    throw new SandboxError(
      "spawn_failed",
      "the disk limit needs nsenter and unshare (util-linux) under /usr and a known architecture: no writable run starts without it",
    );
  }
  return { nsenter: host.nsenter, unshare: unprivileged ? (host.unshare ?? null) : null, syscalls };
}

/** Host pid of the sandbox's pid 1: bwrap's (the started process's) only child. */
export async function supervisorPid(bwrap: { pid?: number }): Promise<number> {
  const children = await readFile(`/proc/${bwrap.pid}/task/${bwrap.pid}/children`, "utf8");
  const pid = Number(children.trim().split(/\s+/)[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error("bwrap has no sandbox process");
  return pid;
}
