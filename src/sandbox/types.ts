/** Run untrusted commands. A non-zero exit is a result, never an exception. */
export interface SandboxRunRequest {
  argv: string[];
  /** Absolute host path of the workspace; it becomes the only writable mount. */
  workspace: string;
  /** Working directory relative to the workspace root ("" = root). */
  cwd?: string;
  /** Extra environment variables (merged over a minimal allowlist). Never secrets. */
  env?: Record<string, string>;
  /** Network only for the setup step, when the repo config allows it. */
  network?: boolean;
  timeoutMs: number;
  limits?: SandboxLimits;
  signal?: AbortSignal;
  /** Output lines as they come, for progress and the timeline. */
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
}

export interface SandboxLimits {
  /** Per stream; beyond it the head and tail are kept and `truncated` is set. */
  maxOutputBytes?: number;
  maxProcesses?: number;
  memoryBytes?: number;
}

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface Sandbox {
  readonly backend: "bubblewrap" | "docker";
  run(req: SandboxRunRequest): Promise<SandboxResult>;
}
