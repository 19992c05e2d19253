import { readFile, stat } from "node:fs/promises";
import { createTwoFilesPatch } from "diff";
import type { ToolError } from "../session/types.js";

/** Text helpers shared by the file tools: binary detection, line splitting, caps, file lookup. */

/** git's own heuristic: a NUL byte in the first 8 KB means binary. */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** Lines without their terminators; a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Keeps the head and the tail (where errors usually are) of an over-long text. */
export function capText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const head = Math.floor(maxChars / 4);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n… [${omitted} characters omitted] …\n${text.slice(text.length - tail)}`, truncated: true };
}

/** Unified diff of one file, as shown to a human approving a write and to the model after an edit. */
export function filePatch(rel: string, before: string | null, after: string, maxChars: number): string {
  const patch = createTwoFilesPatch(before === null ? "/dev/null" : `a/${rel}`, `b/${rel}`, before ?? "", after);
  return capText(patch, maxChars).text;
}

/** Beyond this no tool loads a file into memory; such files are data, not source to edit. */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A regular file's bytes, null when nothing is there, or a model-visible error for anything else. */
export async function readRegularFile(abs: string, rel: string): Promise<Buffer | null | ToolError> {
  const st = await stat(abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return null;
    throw err;
  });
  if (st === null) return null;
  if (!st.isFile()) {
    return { code: "not_a_file", message: `${rel} is a directory, not a file; use list_files to see its contents.`, details: { path: rel } };
  }
  if (st.size > MAX_FILE_BYTES) {
    return { code: "file_too_large", message: `${rel} is ${st.size} bytes, beyond the ${MAX_FILE_BYTES}-byte limit of the file tools.`, details: { path: rel, bytes: st.size } };
  }
  return readFile(abs);
}

export function isToolError(x: unknown): x is ToolError {
  return typeof x === "object" && x !== null && !Buffer.isBuffer(x) && "code" in x && "message" in x;
}

export function notFound(rel: string): ToolError {
  return { code: "file_not_found", message: `${rel} does not exist; use list_files or search_code to find the right path.`, details: { path: rel } };
}
