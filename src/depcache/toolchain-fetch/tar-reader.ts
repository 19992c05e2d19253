import { ToolchainFetchError } from "./fetch-error.js";

const BLOCK = 512;

/** One member of a tar archive as the unpacker sees it: its path as written, and what kind it is. */
export interface TarHeader {
  path: string;
  size: number;
  mode: number;
  /** The ustar type flag: `0` a file, `5` a directory, `x` a pax header… */
  type: string;
}

/**
 * The bytes of an archive, taken in exact records or streamed in the pieces they arrive in. A body of
 * a hundred megabytes (the node binary) passes through, never held whole.
 */
export class ByteSource {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(private readonly it: AsyncIterator<Buffer>) {}

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.it.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    this.buf = this.buf.length === 0 ? r.value : Buffer.concat([this.buf, r.value]);
    return true;
  }

  /** Exactly `n` bytes; null when the archive ends cleanly before them. */
  async take(n: number): Promise<Buffer | null> {
    while (this.buf.length < n) {
      if (await this.more()) continue;
      if (this.buf.length === 0) return null;
      throw new ToolchainFetchError("archive", "the archive ends inside a record");
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** `n` bytes in the pieces they arrive in, then the padding to the next record is skipped. */
  async *body(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.more())) throw new ToolchainFetchError("archive", "the archive ends inside a file");
      const piece = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
    const pad = (BLOCK - (n % BLOCK)) % BLOCK;
    if (pad > 0 && (await this.take(pad)) === null) throw new ToolchainFetchError("archive", "the archive ends inside a file's padding");
  }

  /** A small body whole (a pax header, a GNU long name). */
  async bodyBytes(n: number): Promise<Buffer> {
    if (n > 1024 * 1024) throw new ToolchainFetchError("archive", "a tar header's extension is over 1 MB");
    const parts: Buffer[] = [];
    for await (const piece of this.body(n)) parts.push(Buffer.from(piece));
    return Buffer.concat(parts);
  }
}

function text(block: Buffer, at: number, len: number): string {
  const field = block.subarray(at, at + len);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? len : end).toString("utf8");
}

function octal(block: Buffer, at: number, len: number, what: string): number {
  const raw = text(block, at, len).trim();
  if (!/^[0-7]+$/.test(raw)) throw new ToolchainFetchError("archive", `a tar header's ${what} is not an octal number`);
  return parseInt(raw, 8);
}

/** The next header, or null at the end of the archive (a zero record, or no bytes left). */
export async function readHeader(src: ByteSource): Promise<TarHeader | null> {
  const block = await src.take(BLOCK);
  if (block === null || block.every((b) => b === 0)) return null;
  const name = text(block, 0, 100);
  const prefix = text(block, 257, 6).startsWith("ustar") ? text(block, 345, 155) : "";
  return {
    path: prefix ? `${prefix}/${name}` : name,
    mode: octal(block, 100, 8, "mode"),
    size: octal(block, 124, 12, "size"),
    type: String.fromCharCode(block[156] || 0x30),
  };
}

/** The `path` a pax extended header gives the next member (`<len> path=<value>\n` records, lengths in bytes). */
export function paxPath(records: Buffer): string | null {
  let path: string | null = null;
  let at = 0;
  while (at < records.length) {
    const space = records.indexOf(0x20, at);
    const len = Number(records.subarray(at, space).toString("ascii"));
    if (space <= at || !Number.isInteger(len) || at + len > records.length || len <= space - at)
      throw new ToolchainFetchError("archive", "a pax header is malformed");
    const m = /^([^=]+)=([\s\S]*)\n$/.exec(records.subarray(space + 1, at + len).toString("utf8"));
    if (!m) throw new ToolchainFetchError("archive", "a pax header is malformed");
    if (m[1] === "path") path = m[2];
    at += len;
  }
  return path;
}
