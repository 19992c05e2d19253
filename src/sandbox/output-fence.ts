/**
 * A long-lived sandbox's stdout and stderr are shared by its commands, one after the other. The
 * supervisor writes a fence after each command, once every process of it is dead; the fence is
 * chosen by the host per command and never shown to the command, so what comes before it is that
 * command's output, whole, and nothing of it can pass for the end.
 */
export class FencedStream {
  private fence: Buffer | null = null;
  private carry = Buffer.alloc(0);
  private sink: ((chunk: Buffer) => void) | null = null;
  private reached: (() => void) | null = null;
  /** Bytes that arrived while no command was running (bwrap's own messages at start). */
  stray = "";

  /** Routes what follows to `sink` until `fence`, then calls `reached`. */
  begin(fence: string, sink: (chunk: Buffer) => void, reached: () => void): void {
    this.fence = Buffer.from(`\0${fence}\0`);
    this.carry = Buffer.alloc(0);
    this.sink = sink;
    this.reached = reached;
  }

  push(chunk: Buffer): void {
    if (this.fence === null || this.sink === null) {
      this.stray = (this.stray + chunk.toString("utf8")).slice(-4096);
      return;
    }
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const at = data.indexOf(this.fence);
    if (at >= 0) {
      if (at > 0) this.sink(data.subarray(0, at));
      const reached = this.reached;
      this.fence = null;
      this.sink = null;
      this.reached = null;
      this.carry = Buffer.alloc(0);
      reached?.();
      return;
    }
    // The last bytes may be the start of the fence: held back until the next chunk says. Only
    // those: anything else goes to the sink at once, so a command waiting on its own output being
    // seen (onOutput) is never held up.
    const hold = heldBack(data, this.fence);
    if (data.length > hold) this.sink(data.subarray(0, data.length - hold));
    this.carry = Buffer.from(data.subarray(data.length - hold));
  }

  /** The stream ended (the sandbox is gone): whatever was held back belongs to the command. */
  flush(): void {
    if (this.sink && this.carry.length > 0) this.sink(this.carry);
    this.carry = Buffer.alloc(0);
  }
}

/** How many bytes at the end of `data` are the beginning of `fence` (never all of it). */
function heldBack(data: Buffer, fence: Buffer): number {
  for (let k = Math.min(data.length, fence.length - 1); k > 0; k--) {
    if (data.subarray(data.length - k).equals(fence.subarray(0, k))) return k;
  }
  return 0;
}
