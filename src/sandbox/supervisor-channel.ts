import type { EventEmitter } from "node:events";
import type { Readable } from "node:stream";

/**
 * The supervisor's report channel (its fd 5), read line by line. No line ever comes from the
 * command: the command cannot reach that descriptor (supervisor-script.ts).
 */
export class SupervisorChannel {
  private text = "";
  private readonly lines: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;
  /** Resolves once the sandbox's process has exited and every pipe to it is closed. */
  readonly closed: Promise<void>;

  constructor(child: EventEmitter & { pid?: number }, control: Readable) {
    control.on("data", (chunk: Buffer) => {
      this.text += chunk.toString("utf8");
      for (let nl = this.text.indexOf("\n"); nl !== -1; nl = this.text.indexOf("\n")) {
        this.lines.push(this.text.slice(0, nl));
        this.text = this.text.slice(nl + 1);
      }
      this.deliver();
    });
    this.closed = new Promise((resolve) => {
      const end = (): void => {
        this.ended = true;
        this.deliver();
        resolve();
      };
      child.once("close", end);
      // Not started at all, or the spawn helper lost: StartedProcess still sends 'close'; this listener keeps the error from being thrown.
      child.on("error", () => undefined);
    });
  }

  /** The next line, or null when the sandbox is gone. */
  next(): Promise<string | null> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }

  private deliver(): void {
    const waiting = this.waiting;
    if (waiting === null) return;
    if (this.lines.length > 0) {
      this.waiting = null;
      waiting(this.lines.shift()!);
    } else if (this.ended) {
      this.waiting = null;
      waiting(null);
    }
  }
}
