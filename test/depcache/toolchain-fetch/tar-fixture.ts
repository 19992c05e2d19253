import { gzipSync } from "node:zlib";

/** One member of a test archive: a file (type 0) by default; `pax` writes its path in a pax header first. */
export interface Member {
  path: string;
  body?: string;
  mode?: number;
  type?: string;
  pax?: boolean;
}

function header(name: string, size: number, mode: number, type: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, "utf8");
  h.write(mode.toString(8).padStart(7, "0"), 100);
  h.write("0000000", 108);
  h.write("0000000", 116);
  h.write(size.toString(8).padStart(11, "0"), 124);
  h.write("00000000000", 136);
  h.write("        ", 148);
  h.write(type, 156);
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  return h;
}

function padded(body: Buffer): Buffer {
  return Buffer.concat([body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
}

function paxRecord(key: string, value: string): Buffer {
  const text = ` ${key}=${value}\n`;
  let len = text.length + 1;
  while (String(len).length + Buffer.byteLength(text) !== len) len = String(len).length + Buffer.byteLength(text);
  return Buffer.from(`${len}${text}`);
}

/** A gzipped tar archive of `members`, written the way npm packs (`package/…`, ustar). */
export function tarball(members: readonly Member[]): Buffer {
  const parts: Buffer[] = [];
  for (const m of members) {
    const body = Buffer.from(m.body ?? "");
    if (m.pax) {
      const rec = paxRecord("path", m.path);
      parts.push(header("PaxHeader", rec.length, 0o644, "x"), padded(rec));
    }
    parts.push(header(m.pax ? "package/short-name" : m.path, body.length, m.mode ?? 0o644, m.type ?? "0"), padded(body));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
