import { StringDecoder } from "node:string_decoder";

/**
 * Bounded capture of one output stream. A test run that prints 50 MB must not hold 50 MB: the first
 * and last halves of the budget are kept, because the command line and the failure summary live
 * there, and the middle is counted and dropped.
 */
export class HeadTailCapture {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const take = chunk.subarray(0, headRoom);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    this.trimTail();
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** Head, a marker line saying how much was dropped, then tail. Split multi-byte characters become U+FFFD. */
  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (!this.truncated) return head + tail;
    return `${head}\n[… ${this.dropped} bytes of output omitted …]\n${tail}`;
  }

  private trimTail(): void {
    const budget = Math.floor(this.maxBytes / 2);
    while (this.tailBytes > budget) {
      const first = this.tail[0];
      const excess = this.tailBytes - budget;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }
}

/** Longest line handed to onOutput; a longer run of bytes without a newline is delivered in pieces. */
export const MAX_STREAMED_LINE = 8192;

/** Turns chunks into lines as they arrive, for req.onOutput. Holds at most one partial line. */
export class LineSplitter {
  private pending = "";

  constructor(private readonly emit: (line: string) => void) {}

  push(text: string): void {
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      this.emitLine(this.pending + text.slice(start, nl));
      this.pending = "";
      start = nl + 1;
    }
    this.pending += text.slice(start);
    while (this.pending.length > MAX_STREAMED_LINE) {
      this.emit(this.pending.slice(0, MAX_STREAMED_LINE));
      this.pending = this.pending.slice(MAX_STREAMED_LINE);
    }
  }

  /** The last line, when the stream ended without a newline. */
  end(): void {
    if (this.pending.length > 0) this.emitLine(this.pending);
    this.pending = "";
  }

  private emitLine(line: string): void {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.length === 0) this.emit(text);
    for (let i = 0; i < text.length; i += MAX_STREAMED_LINE) this.emit(text.slice(i, i + MAX_STREAMED_LINE));
  }
}

export interface OutputSinkOptions {
  maxOutputBytes: number;
  onOutput?: (stream: "stdout" | "stderr", line: string) => void;
  /** Put at the start of stderr, e.g. which env keys were refused. */
  stderrPrefix?: string;
}

/** One stream of one run: bounded capture, and lines to onOutput as they come. */
export interface OutputSink {
  push(chunk: Buffer): void;
  end(): void;
  kept: HeadTailCapture;
}

export function outputSink(name: "stdout" | "stderr", opts: OutputSinkOptions): OutputSink {
  const kept = new HeadTailCapture(opts.maxOutputBytes);
  const onOutput = opts.onOutput;
  // A throwing listener must not take the run down with it: the output is still captured.
  const lines = onOutput
    ? new LineSplitter((line) => {
        try {
          onOutput(name, line);
        } catch {
          // Ignored on purpose.
        }
      })
    : null;
  const decoder = new StringDecoder("utf8");
  const push = (chunk: Buffer): void => {
    kept.push(chunk);
    lines?.push(decoder.write(chunk));
  };
  if (name === "stderr" && opts.stderrPrefix) push(Buffer.from(opts.stderrPrefix));
  const end = (): void => {
    lines?.push(decoder.end());
    lines?.end();
  };
  return { push, end, kept };
}
