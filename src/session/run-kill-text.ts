import type { RunKill } from "./types.js";

const LIMIT_WORDS: Record<NonNullable<RunKill["limit"]>, string> = {
  time: "the time limit",
  disk: "the disk limit (sandbox.disk_mb)",
  file_size: "the file-size limit (sandbox.disk_mb)",
  cpu: "the CPU-time limit (sandbox.cpu_seconds)",
  memory: "the memory limit (sandbox.memory_mb)",
  stop: "the session being stopped",
};

/** "killed by SIGKILL: the time limit": for the timeline, the check run, the CLI and the model. */
export function killText(kill: RunKill, timeLimit?: string): string {
  const by = kill.signal ? `killed by ${kill.signal}` : "killed";
  if (kill.limit === null) return `${by}: no limit of Patchgate's sent it (the sandbox or the host ended it)`;
  const words = kill.limit === "time" && timeLimit ? `the time limit (${timeLimit})` : LIMIT_WORDS[kill.limit];
  return `${by}: ${words}`;
}
