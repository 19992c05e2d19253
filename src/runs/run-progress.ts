/** Which of the sandboxed runs a session makes is starting: for a status line, never for a decision. */
export type RunKind = "setup" | "baseline" | "tests" | "command";

export interface RunStarted {
  kind: RunKind;
  /** The command as the maintainer wrote it (setup, tests) or the model's argv joined by spaces. */
  command: string;
  network: boolean;
}

/** Told when a run starts; what it returns is called when the run has ended, however it ended. */
export type OnRun = (run: RunStarted) => (() => void) | void;
