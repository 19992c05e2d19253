import { SandboxError } from "./sandbox-error.js";

/** One command for the supervisor (supervisor-script.ts): its request, as written on the supervisor's fd 0. */
export interface SupervisorRequest {
  fence: string;
  cwd: string;
  env: Record<string, string>;
  /** The whole exec argv: prlimit with the run's limits, then the command. */
  argv: string[];
}

export function encodeRequest(req: SupervisorRequest): Buffer {
  const env = Object.entries(req.env).map(([k, v]) => `${k}=${v}`);
  const fields = [req.fence, req.cwd, String(env.length), ...env, ...req.argv];
  // prepareRun refuses NUL in argv and env; checked again since the framing depends on it.
  if (fields.some((f) => f.includes("\0"))) throw new SandboxError("invalid_request", "a NUL byte in a sandboxed command");
  const payload = Buffer.from(fields.join("\0"));
  return Buffer.concat([Buffer.from(`${payload.length}\n`), payload]);
}

export interface SupervisorReport {
  fence: string;
  /** Raw wait status of the command's first process; -1 when it could not be started. */
  status: number;
  /** Everything was put back (/tmp, /dev, IPC); when false the sandbox is retired. */
  clean: boolean;
}

/** A `done` line, or null for anything else (the host then treats the supervisor as broken). */
export function parseReport(line: string): SupervisorReport | null {
  const m = /^done ([0-9a-f]+) (-1|\d+) ([01])$/.exec(line);
  return m ? { fence: m[1]!, status: Number(m[2]), clean: m[3] === "1" } : null;
}

/**
 * The wait status as the one-shot sandbox reports it: bwrap turns a death by signal into exit
 * status 128 + signal, so that is what a caller sees in both forms (decodeLimitSignal reads the
 * CPU and file-size signals back from it).
 */
export function exitCodeOf(status: number): number {
  const signal = status & 0x7f;
  return signal === 0 ? (status >> 8) & 0xff : 128 + signal;
}
