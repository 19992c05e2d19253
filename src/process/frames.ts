/**
 * The helper's wire format, both ways over its stdin and stdout: a frame is a 4-byte length (of what
 * follows it), a 4-byte process id chosen by the parent, a 1-byte type and a payload. Control frames
 * carry JSON; data frames carry one byte naming the descriptor, then the bytes as they came.
 */
export const FRAME = {
  // parent → helper
  start: 1,
  write: 2,
  end: 3,
  kill: 4,
  // helper → parent
  spawned: 11,
  failed: 12,
  data: 13,
  eof: 14,
  exit: 15,
  close: 16,
} as const;

export type FrameType = (typeof FRAME)[keyof typeof FRAME];

const HEADER_BYTES = 9;

export interface Frame {
  id: number;
  type: number;
  payload: Buffer;
}

export function encodeFrame(id: number, type: FrameType, payload: Buffer): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  head.writeUInt32BE(payload.length + HEADER_BYTES - 4, 0);
  head.writeUInt32BE(id, 4);
  head.writeUInt8(type, 8);
  return Buffer.concat([head, payload]);
}

export const jsonPayload = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), "utf8");

/** A data or end frame's payload: the descriptor, then the bytes. */
export const fdPayload = (fd: number, bytes: Buffer = Buffer.alloc(0)): Buffer => Buffer.concat([Buffer.from([fd]), bytes]);

/**
 * Cuts a byte stream into frames; chunks may split a frame anywhere. Chunks are joined only once
 * a whole frame is in, so a large frame costs one copy, not one per chunk.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private total = 0;
  /** Bytes needed before the next frame can be cut (its size, once the header is in). */
  private need = 4;

  push(chunk: Buffer, onFrame: (frame: Frame) => void): void {
    this.chunks.push(chunk);
    this.total += chunk.length;
    if (this.total < this.need) return;
    const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    let at = 0;
    for (;;) {
      if (buf.length - at < 4) {
        this.need = 4;
        break;
      }
      const size = buf.readUInt32BE(at);
      if (buf.length - at - 4 < size) {
        this.need = 4 + size;
        break;
      }
      onFrame({ id: buf.readUInt32BE(at + 4), type: buf.readUInt8(at + 8), payload: buf.subarray(at + HEADER_BYTES, at + 4 + size) });
      at += 4 + size;
    }
    const rest = buf.subarray(at);
    this.chunks = rest.length === 0 ? [] : [rest];
    this.total = rest.length;
  }
}
