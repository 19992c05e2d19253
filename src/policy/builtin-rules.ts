/**
 * Rule ids the evaluator itself produces. They are not entries in a rule list because they judge the
 * shape of a request (its mode, its pipeline, its redirections) rather than one simple command, and no
 * repository configuration can switch them off.
 */
export const BUILTIN_RULE = {
  /** Nothing matched: a human decides. */
  DEFAULT_ASK: "default:ask",
  /** A write or command while planning (the loop's plan gate refuses these first; this is the backstop). */
  PLAN_GATE: "plan-gate",
  /** The argv, or the text of an explicit shell, could not be read into simple commands, so nothing about it can be trusted. */
  UNPARSEABLE: "command:unparseable",
  /** An explicit shell (`sh -c …`): never allowed, a human reads the text (only the configured test command is vouched for). */
  EXPLICIT_SHELL: "ask:explicit-shell",
  /** A program that runs what data says (xargs, env -S, find -exec, git -c, npm scripts…): never allowed. */
  RUNS_FROM_DATA: "ask:runs-from-data",
  /** A downloader's output reaches a shell, interpreter, `source`/`eval`: pipe, `$(…)`, `<(…)`, `> >(…)`. */
  DOWNLOAD_TO_SHELL: "deny:download-to-shell",
  /** An output redirection whose target is (or may be) outside the workspace, or any redirection to /dev/tcp|udp. */
  REDIRECT_OUTSIDE: "deny:redirect-outside-workspace",
  /** `env PATH=. ls`, `LD_PRELOAD=… cat`: the allowance for a program does not extend to a changed environment. */
  ENV_OVERRIDE: "ask:env-override",
  /** A write that would ask, allowed because a human approved every write of the session. */
  WRITES_APPROVED: "session:writes-approved",
  /** A write of executable configuration (./executable-config.ts): asks for its own approval, which no label or flag gives. */
  EXECUTABLE_CONFIG: "ask:executable-config",
  /** Something that would ask, refused because the session runs unattended. */
  UNATTENDED: "deny:unattended",
} as const;
