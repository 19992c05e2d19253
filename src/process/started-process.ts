import { EventEmitter, once } from "node:events";
import { Duplex, Readable, Writable } from "node:stream";
import { FRAME, fdPayload, jsonPayload, type Frame } from "./frames.js";
import type { HelperConnection } from "./helper-connection.js";
import { ProcessError } from "./process-error.js";

export interface StartOptions {
  command: string;
  args: readonly string[];
  /** The child's whole environment: nothing of the app's own environment is added to it. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** Its own process group, so that killGroup reaches whatever it starts. */
  detached?: boolean;
  /** Default "pipe". */
  stdin?: "pipe" | "ignore";
  /** Pipes after stdin, stdout and stderr (descriptors 3, 4, …), each readable and writable. */
  extraPipes?: number;
}

type Stream = Readable | Writable | Duplex | null;

/**
 * A process started by the spawn helper, shaped like node's ChildProcess where callers use it:
 * `pid`, `stdin`/`stdout`/`stderr`/`stdio`, `kill()`, and the events 'spawn', 'error' (it could
 * not start, or the helper was lost), 'exit' and 'close' (code, signal; after stdout and stderr
 * have ended). When the helper dies, the process gets a ProcessError `helper_lost` on 'error'
 * (when someone listens) and then 'close' with (null, null): never silence.
 */
export class StartedProcess extends EventEmitter {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdio: Stream[];
  private readonly id: number;
  private done = false;

  constructor(
    private readonly conn: HelperConnection,
    readonly options: StartOptions,
  ) {
    super();
    const extra = options.extraPipes ?? 0;
    this.stdio = [options.stdin === "ignore" ? null : this.writable(0), this.readable(), this.readable()];
    for (let i = 0; i < extra; i++) this.stdio.push(this.duplex(3 + i));
    this.id = conn.open({ onFrame: (f) => this.onFrame(f), onLost: (reason) => this.onLost(reason) });
    const { command, args, env, cwd, detached } = options;
    conn.send(this.id, FRAME.start, jsonPayload({ command, args, env, cwd, detached: detached ?? false, stdin: options.stdin ?? "pipe", extraPipes: extra }));
  }

  get stdin(): Writable | null {
    return this.stdio[0] as Writable | null;
  }
  get stdout(): Readable {
    return this.stdio[1] as Readable;
  }
  get stderr(): Readable {
    return this.stdio[2] as Readable;
  }

  /** Signals the process itself (default SIGTERM). */
  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    if (!this.done) this.conn.send(this.id, FRAME.kill, jsonPayload({ signal, group: false }));
  }

  /** Signals its whole process group; only for a detached process. */
  killGroup(signal: NodeJS.Signals = "SIGKILL"): void {
    if (!this.done) this.conn.send(this.id, FRAME.kill, jsonPayload({ signal, group: true }));
  }

  private onFrame(f: Frame): void {
    switch (f.type) {
      case FRAME.spawned:
        this.pid = (JSON.parse(f.payload.toString("utf8")) as { pid: number }).pid;
        this.emit("spawn");
        return;
      case FRAME.data:
        (this.stdio[f.payload[0]] as Readable | undefined)?.push(f.payload.subarray(1));
        return;
      case FRAME.eof:
        (this.stdio[f.payload[0]] as Readable | undefined)?.push(null);
        return;
      case FRAME.exit: {
        const { code, signal } = JSON.parse(f.payload.toString("utf8")) as { code: number | null; signal: NodeJS.Signals | null };
        this.exitCode = code;
        this.signalCode = signal;
        this.emit("exit", code, signal);
        return;
      }
      case FRAME.close: {
        const { code, signal } = JSON.parse(f.payload.toString("utf8")) as { code: number | null; signal: NodeJS.Signals | null };
        this.finish(code, signal);
        return;
      }
      case FRAME.failed: {
        const e = JSON.parse(f.payload.toString("utf8")) as { message: string; code?: string; errno?: number; syscall?: string };
        const error = Object.assign(new Error(e.message), {
          code: e.code,
          errno: e.errno,
          syscall: e.syscall,
          path: this.options.command,
          spawnargs: [...this.options.args],
        });
        this.fail(error, e.errno ?? null);
        return;
      }
    }
  }

  private onLost(reason: string): void {
    if (this.done) return;
    const { command } = this.options;
    // Whatever it started is an orphan now that nobody will reap or report: it is stopped at once.
    if (this.pid !== undefined) killQuietly(this.options.detached ? -this.pid : this.pid);
    const what = this.pid === undefined ? `before ${command} started` : `while ${command} (pid ${this.pid}) was running`;
    this.fail(new ProcessError("helper_lost", `${reason} ${what}`), null);
  }

  private fail(error: Error, code: number | null): void {
    if (this.listenerCount("error") > 0) this.emit("error", error);
    for (const s of this.stdio) if (s instanceof Readable && !s.readableEnded) s.push(null);
    this.finish(code, null);
  }

  /** 'close' comes after the data: once every stream being read has emitted its end. */
  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.done) return;
    this.done = true;
    this.conn.release(this.id);
    const reading = this.stdio.filter((s): s is Readable => s instanceof Readable && s.readableFlowing === true && !s.readableEnded);
    void Promise.all(reading.map((s) => once(s, "end").catch(() => undefined))).then(() => this.emit("close", code, signal));
  }

  private readable(): Readable {
    return new Readable({ read: () => undefined });
  }

  private writable(fd: number): Writable {
    return new Writable({ write: (chunk: Buffer, _e, cb) => this.write(fd, chunk, cb), final: (cb) => this.end(fd, cb) });
  }

  private duplex(fd: number): Duplex {
    return new Duplex({ read: () => undefined, write: (chunk: Buffer, _e, cb) => this.write(fd, chunk, cb), final: (cb) => this.end(fd, cb) });
  }

  private write(fd: number, chunk: Buffer, cb: () => void): void {
    if (!this.done) this.conn.send(this.id, FRAME.write, fdPayload(fd, chunk));
    cb();
  }

  private end(fd: number, cb: () => void): void {
    if (!this.done) this.conn.send(this.id, FRAME.end, fdPayload(fd));
    cb();
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
