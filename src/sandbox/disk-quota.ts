import { statfs } from "node:fs/promises";
import type { SandboxResult } from "./types.js";

/**
 * The docker backend's disk limit. Its workspace is a host directory bound into the container, and
 * the engine offers no size limit for a bind, so the run is watched: the free space of the filesystem
 * holding the workspace is sampled while it runs, and the run is killed once that filesystem has lost
 * more than the limit since the start. A burst between two samples passes, and every writer on that
 * filesystem counts; bubblewrap has the exact limit instead (run-overlay.ts).
 * One file can never outgrow the limit at all (RLIMIT_FSIZE).
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
