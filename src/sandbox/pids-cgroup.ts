import { randomBytes } from "node:crypto";
import { access, mkdir, readFile, readdir, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * How the process limit is enforced. RLIMIT_NPROC (set by prlimit inside the sandbox) is counted per
 * user namespace, so each sandbox gets its own budget — but the kernel never applies it to a task
 * whose real uid is host root, and a user namespace does not change that uid. So when Patchgate runs
 * as root, a pids cgroup per run does the job instead; as any other user, the rlimit suffices.
 */
export type ProcessLimitMode = { kind: "rlimit" } | { kind: "cgroup"; version: 1 | 2; parent: string };

export type ProcessLimitProbe = ProcessLimitMode | { kind: "unavailable"; reason: string };

const CGROUP_ROOT = "/sys/fs/cgroup";

export async function detectProcessLimit(uid = process.getuid?.() ?? -1, root = CGROUP_ROOT): Promise<ProcessLimitProbe> {
  if (uid !== 0) return { kind: "rlimit" };
  try {
    const controllers = await readFile(path.join(root, "cgroup.controllers"), "utf8").catch(() => "");
    if (controllers.split(/\s+/).includes("pids")) {
      const parent = path.join(root, "patchgate");
      await writeFile(path.join(root, "cgroup.subtree_control"), "+pids");
      await mkdir(parent, { recursive: true });
      await writeFile(path.join(parent, "cgroup.subtree_control"), "+pids");
      await removeStaleRuns(parent);
      return { kind: "cgroup", version: 2, parent };
    }
    await access(path.join(root, "pids", "cgroup.procs"));
    const parent = path.join(root, "pids", "patchgate");
    await mkdir(parent, { recursive: true });
    await removeStaleRuns(parent);
    return { kind: "cgroup", version: 1, parent };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      kind: "unavailable",
      reason: `running as root, where RLIMIT_NPROC is not enforced, and no writable pids cgroup (${why}); run Patchgate as a non-root user`,
    };
  }
}

/** One run's cgroup: created before the sandbox starts, emptied and removed after it ends. */
export class PidsCgroup {
  private constructor(readonly dir: string) {}

  static async create(mode: Extract<ProcessLimitMode, { kind: "cgroup" }>, maxPids: number): Promise<PidsCgroup> {
    const dir = path.join(mode.parent, `run-${process.pid}-${randomBytes(4).toString("hex")}`);
    await mkdir(dir);
    await writeFile(path.join(dir, "pids.max"), String(maxPids));
    return new PidsCgroup(dir);
  }

  get procsFile(): string {
    return path.join(this.dir, "cgroup.procs");
  }

  /** Moves a running process (and its future children) into this cgroup. */
  async adopt(pid: number): Promise<void> {
    await writeFile(this.procsFile, String(pid));
  }

  async has(pid: number): Promise<boolean> {
    return (await this.pids()).includes(pid);
  }

  /** Backs up the process-group kill: whatever is still in the cgroup is SIGKILLed. */
  async killAll(): Promise<void> {
    for (const pid of await this.pids()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  /**
   * rmdir fails with EBUSY until the kernel has reaped every member, and the pid namespace is torn
   * down asynchronously after bwrap exits; that usually takes well under a millisecond, so the
   * retries start short and back off (about 1 s in all), killing stragglers on the way.
   */
  async remove(): Promise<void> {
    for (let attempt = 0, delay = 0.25; attempt < 24; attempt++, delay = Math.min(delay * 2, 100)) {
      try {
        await rmdir(this.dir);
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        if (attempt === 8) await this.killAll();
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** The host pids of the processes in it now. */
  members(): Promise<number[]> {
    return this.pids();
  }

  private async pids(): Promise<number[]> {
    const text = await readFile(this.procsFile, "utf8").catch(() => "");
    return text.split("\n").filter(Boolean).map(Number);
  }
}

// Left behind when a Patchgate process died mid-run. Only cgroups whose creator is gone are touched,
// so a concurrent Patchgate's just-created (still empty) cgroup is not pulled from under it.
async function removeStaleRuns(parent: string): Promise<void> {
  for (const name of await readdir(parent)) {
    const owner = Number(/^run-(\d+)-/.exec(name)?.[1]);
    if (owner && !isAlive(owner)) await rmdir(path.join(parent, name)).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
