/** Run untrusted commands. A non-zero exit is a result, never an exception. */
export interface SandboxRunRequest {
  argv: string[];
  /** Absolute host path of the workspace; it becomes the only writable mount. */
  workspace: string;
  /** Working directory relative to the workspace root ("" = root). */
  cwd?: string;
  /** Extra environment variables (merged over a minimal allowlist). Never secrets. */
  env?: Record<string, string>;
  /**
   * Network only for the setup step, when the repo config allows it: through the egress proxy
   * (egress/), which reaches the package registries and `allowHosts`, never the host's network.
   */
  network?: boolean;
  /** With `network`: hosts allowed besides the registries (`sandbox.allow_hosts`), as allow-rule.ts reads them. */
  allowHosts?: readonly string[];
  /**
   * With `network`: whether the package registries are allowed besides `allowHosts` (the setup step).
   * false for a command or test run that reaches only the hosts a human granted the session. Default true.
   */
  packageRegistries?: boolean;
  /**
   * Mount the workspace read-only: for commands the policy allowed as readers, so that a reader rule
   * that is wrong about a program still cannot change a file.
   */
  readOnlyWorkspace?: boolean;
  /**
   * The maintainer's setup step: the only run that writes the session's cache and HOME (run-state.ts).
   * Never set for a command the model chose.
   */
  setup?: boolean;
  /**
   * Which of the paths a run wrote git ignores (Workspace.ignoredAmong). When set, whatever the run
   * created, changed or deleted there (node_modules, build directories, caches) is discarded with it:
   * nothing a run leaves outside what rollback governs reaches a later run, the test run that gates
   * `finish` above all. runs/sandbox-run.ts sets it for every run but setup and a command a human
   * approved; setup ignores it. The bubblewrap backend honours it (its layer per run); docker, which
   * binds the workspace, does not.
   */
  discardIgnored?: (rels: readonly string[]) => Promise<Set<string>>;
  timeoutMs: number;
  limits?: SandboxLimits;
  /**
   * Set by a session's sandbox, never by a caller: what the session's earlier runs left of
   * `limits.diskBytes` in the workspace (bubblewrap-session.ts); the run may write no more.
   */
  diskLeftBytes?: number;
  /** What the session adds to every run: its toolchains and its cache directory (session-sandbox.ts). */
  session?: SessionExtras;
  signal?: AbortSignal;
  /** Output lines as they come, for progress and the timeline. */
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
}

/** Per-session additions to a run, decided by the runtime on the host, never by the caller's arguments. */
export interface SessionExtras {
  /** Host directories bound read-only at their own paths: the session's toolchains (never HOME). */
  binds: string[];
  /** Put on PATH, in this order, ahead of the sandbox's default PATH. */
  pathDirs: string[];
  /** Host directory bound at SANDBOX_CACHE into the session's runs, writable by setup alone (run-state.ts). */
  cacheDir?: string;
  /** Where the credential walks of `binds` are kept across processes (credential-walk-store.ts); absent: each process walks. */
  walkStore?: string;
  /** Set by the runtime (cache locations, GOTOOLCHAIN), so not filtered like a caller's variables. */
  env?: Record<string, string>;
}

export interface SandboxLimits {
  /** Per stream; beyond it the head and tail are kept and `truncated` is set. */
  maxOutputBytes?: number;
  maxProcesses?: number;
  memoryBytes?: number;
  /**
   * How much the run may write: /tmp and HOME (tmpfs) are this big, no single file may grow beyond it
   * (RLIMIT_FSIZE), and its writes to the workspace land in a layer of this size, kept only when
   * within it (bubblewrap: run-overlay.ts; docker: the workspace's filesystem is watched).
   */
  diskBytes?: number;
  /** CPU seconds per process (RLIMIT_CPU): a process that spends them gets SIGXCPU. */
  cpuSeconds?: number;
}

/** Which limit ended a run, when one did (a wall-clock timeout is `timedOut`). */
type SandboxLimitHit = "cpu" | "disk" | "file_size";

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  /** Set when a limit other than the wall clock stopped the run; `signal` says how it was stopped. */
  limitExceeded?: SandboxLimitHit;
  durationMs: number;
  /**
   * How much the workspace grew by what the run wrote (bytes of files kept less those they replaced
   * or it deleted); set by backends that account a run's writes exactly (bubblewrap).
   */
  diskBytesAdded?: number;
  /** FIFOs, sockets and device nodes the run made, which never reached the workspace: "path (a kind)". */
  droppedSpecial?: string[];
}

export interface Sandbox {
  readonly backend: "bubblewrap" | "docker";
  /**
   * True only where a run's writes reach the workspace by replacing entries, never by writing into a
   * file that is there (bubblewrap: a layer per run, copied back by rename, overlay-merge.ts), so a
   * hard link from the workspace elsewhere keeps its contents. Absent: assume runs write in place.
   */
  readonly writesByReplacing?: boolean;
  run(req: SandboxRunRequest): Promise<SandboxResult>;
  /**
   * Readies the sandbox for a run like `req` without running anything (bubblewrap's session sandbox
   * lays the run out and starts the sandbox it will run in), so that what the caller does before the
   * run (the snapshot of the tree) overlaps it. Never required: `run` does whatever was not done, and
   * a failure here is left for `run` to meet and report. Absent: nothing to ready.
   */
  prepare?(req: SandboxRunRequest): Promise<void>;
  /**
   * The same sandbox for one session's commands, kept between them where the backend can do so
   * (bubblewrap-session.ts); `close` ends whatever it kept. Backends without it run every command
   * on its own.
   */
  openSession?(): SessionSandbox;
  /**
   * The same sandbox, whose networked runs have the session's GitHub installation token for the
   * private registries whose credential it is (GitHub Packages); it stays on the host, like every
   * registry credential. Backends without private registries have no need of it.
   */
  withInstallationToken?(token: string): Sandbox;
}

/** A session's sandbox: runs like any other, and is closed when the session ends or parks. */
export interface SessionSandbox extends Sandbox {
  close(): Promise<void>;
}
