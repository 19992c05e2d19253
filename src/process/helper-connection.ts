// The one place the app's own process forks: it starts the spawn helper, which starts everything else.
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { encodeFrame, FrameReader, type Frame, type FrameType } from "./frames.js";
import { HELPER_SOURCE } from "./helper-source.js";

/** What the connection tells one process started through it. */
export interface HelperListener {
  onFrame(frame: Frame): void;
  /** The helper is gone: no further frame will come for this process. */
  onLost(reason: string): void;
}

/**
 * One running helper. It is started on first use and replaced by a fresh one if it dies; processes
 * running in a dead helper are told so (onLost) and never hear anything again. The pipes to the
 * helper hold the event loop open only while a process runs in it, so an idle helper never keeps
 * the app (or a CLI run) from exiting; the helper then sees its stdin end and exits too. A helper
 * idle for IDLE_MS is let go (its stdin ended), unless its process keeps it (keepHelper): one left
 * behind by every module instance that loaded this file (each jest test file) would otherwise live
 * as long as the process.
 */
const IDLE_MS = 10_000;

export class HelperConnection {
  private readonly listeners = new Map<number, HelperListener>();
  private readonly reader = new FrameReader();
  private nextId = 1;
  private kept = false;
  private lostReason: string | null = null;
  private idle: NodeJS.Timeout | undefined;

  private constructor(private readonly child: ChildProcess) {
    const out = child.stdout as Readable;
    out.on("data", (chunk: Buffer) => this.reader.push(chunk, (f) => this.listeners.get(f.id)?.onFrame(f)));
    (child.stdin as Writable).on("error", () => undefined); // reported through 'exit'
    child.once("error", (e) => this.lose(`the spawn helper could not run: ${e.message}`));
    // 'close', not 'exit': the frames the helper wrote before it died are still read first.
    child.once("close", (code, signal) => this.lose(`the spawn helper exited (${signal ?? `code ${code}`})`));
    this.hold(false);
  }

  static start(): HelperConnection {
    // An empty environment: the helper needs none, and the app's secrets must not sit in its /proc entry.
    // A session of its own (detached): where the kernel shares CPU by session (autogroup), the git and
    // test processes it starts then never count against the app's share, so its event loop gets a CPU
    // when it wakes. It still ends with the app (its stdin ends) and ignores terminal signals anyway.
    const child = spawn(process.execPath, ["--max-old-space-size=128", "-e", HELPER_SOURCE], { stdio: ["pipe", "pipe", "inherit"], env: {}, detached: true });
    return new HelperConnection(child);
  }

  /** From now on it is never let go for idling. */
  keep(): void {
    this.kept = true;
    clearTimeout(this.idle);
  }

  get alive(): boolean {
    return this.lostReason === null;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Registers a process; frames for it go to `listener` until its close frame or the helper's end. */
  open(listener: HelperListener): number {
    const id = this.nextId++;
    if (this.lostReason !== null) {
      const reason = this.lostReason;
      queueMicrotask(() => listener.onLost(reason));
      return id;
    }
    this.listeners.set(id, listener);
    this.hold(true);
    return id;
  }

  /** The process is done (its close frame came): nothing more will come for it. */
  release(id: number): void {
    this.listeners.delete(id);
    if (this.listeners.size === 0) this.hold(false);
  }

  send(id: number, type: FrameType, payload: Buffer): void {
    if (this.lostReason === null) (this.child.stdin as Writable).write(encodeFrame(id, type, payload));
  }

  /** Nothing runs in it: it is ended, and the next process starts a new one. */
  private retire(): void {
    if (this.listeners.size > 0 || this.lostReason !== null) return;
    this.lostReason = "the spawn helper was idle and let go";
    (this.child.stdin as Writable).end();
  }

  private lose(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    const left = [...this.listeners.values()];
    this.listeners.clear();
    this.hold(false);
    for (const l of left) l.onLost(reason);
  }

  private hold(on: boolean): void {
    clearTimeout(this.idle);
    if (!on && this.lostReason === null && !this.kept) {
      this.idle = setTimeout(() => this.retire(), IDLE_MS);
      this.idle.unref();
    }
    for (const s of [this.child.stdin, this.child.stdout] as (Writable & { ref?: () => void; unref?: () => void })[]) {
      if (on) s.ref?.();
      else s.unref?.();
    }
    if (on) this.child.ref();
    else this.child.unref();
  }
}

let current: HelperConnection | null = null;
let keepEvery = false;

/** The running helper, started now if there is none or the last one died. */
export function helper(): HelperConnection {
  if (current === null || !current.alive) {
    current = HelperConnection.start();
    if (keepEvery) current.keep();
  }
  return current;
}

/**
 * For a process whose work is sessions (the app, a CLI command that runs them): its helper, and any
 * that replaces it, is kept however long it idles, so a session's next process, after a model call
 * of any length, finds it running instead of waiting for a node start. `startNow`: start it at once,
 * beside the process's own loading, for a command that needs it within the second. A module instance
 * that may be one of many (a test file's) keeps the default: its idle helper is let go.
 */
export function keepHelper(opts: { startNow: boolean }): void {
  keepEvery = true;
  if (opts.startNow) helper();
  current?.keep();
}
