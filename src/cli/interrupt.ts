import { exitAfterDrain } from "./exit-after-drain.js";

export interface InterruptNotice {
  /** The session a Ctrl-C would leave behind, once it exists. */
  session(id: string): void;
  dispose(): void;
}

/**
 * Ctrl-C during `run` or `resume`: say what became of the work before exiting 130. Nothing is lost —
 * every event is written before its effect, and a tool call cut off is re-run or answered
 * `interrupted` on resume — but a silent exit leaves the user guessing. A second Ctrl-C exits at once.
 */
export function interruptNotice(out: NodeJS.WritableStream): InterruptNotice {
  let sessionId: string | null = null;
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    out.write(
      sessionId === null
        ? "\ninterrupted before a session was created; nothing to resume\n"
        : `\ninterrupted: session ${sessionId} is saved as it was, nothing is lost; continue with: patchgate resume ${sessionId}\n`,
    );
    void exitAfterDrain(130);
  };
  process.on("SIGINT", onSigint);
  return {
    session: (id) => {
      sessionId = id;
    },
    dispose: () => {
      process.off("SIGINT", onSigint);
    },
  };
}
