import { statfs } from "node:fs/promises";
import type { SandboxResult } from "./types.js";

/**
 * The workspace is a host directory, so no tmpfs bounds it, and bubblewrap 0.8 has no overlay to put
 * the run's writes in one. A loop-mounted image would, but needs root, loop devices and a workspace
 * that lives inside the image. So the run is watched: the free space of the filesystem holding the
 * workspace is sampled while it runs, and the run is killed once that filesystem has lost more than
 * the quota since the start. Cheap (one statfs per sample), at the price of counting every writer on
 * that filesystem: runs sharing a disk share the margin, and a kill errs on the side of the disk.
 * One file can never outgrow the quota at all (RLIMIT_FSIZE, bubblewrap-argv.ts); /tmp is a sized tmpfs.
 */
const DISK_SAMPLE_MS = 50;
/** How long a run that spent its quota may take to end on its own (file-size signal) before it is killed. */
export const DISK_KILL_GRACE_MS = 2 * DISK_SAMPLE_MS;

export interface DiskQuota {
  /** A path on the filesystem to watch (the workspace). */
  path: string;
  maxBytes: number;
}

/** Calls `onExceeded` once when the quota is spent; `stop` ends the sampling. */
export function watchDiskQuota(quota: DiskQuota, onExceeded: () => void, sampleMs = DISK_SAMPLE_MS): { stop: () => void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const used = async (): Promise<number | null> => {
    const s = await statfs(quota.path).catch(() => null);
    return s === null ? null : (s.blocks - s.bfree) * s.bsize;
  };
  void (async () => {
    const start = await used();
    if (start === null) return;
    const sample = async (): Promise<void> => {
      if (stopped) return;
      const now = await used();
      if (stopped) return;
      if (now !== null && now - start > quota.maxBytes) {
        stopped = true;
        onExceeded();
        return;
      }
      timer = setTimeout(() => void sample(), sampleMs);
    };
    await sample();
  })();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

const SIGNALS_OF_LIMITS: Record<number, { signal: string; limit: NonNullable<SandboxResult["limitExceeded"]> }> = {
  24: { signal: "SIGXCPU", limit: "cpu" },
  25: { signal: "SIGXFSZ", limit: "file_size" },
};

/**
 * bwrap (and docker) report a command killed by a signal as exit status 128 + signal. The two signals
 * only the CPU and file-size limits send are read back as such: a command that itself exits 152 or
 * 153 is reported the same way, which costs nothing but a misnamed reason.
 */
export function decodeLimitSignal(r: SandboxResult): SandboxResult {
  const hit = r.exitCode !== null && r.exitCode > 128 ? SIGNALS_OF_LIMITS[r.exitCode - 128] : undefined;
  if (!hit || r.limitExceeded) return r;
  return { ...r, exitCode: null, signal: hit.signal, limitExceeded: hit.limit };
}
