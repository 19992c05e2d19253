import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";

/**
 * Special files as a test run could leave them: FIFOs made with the real mkfifo, a listening unix
 * socket, a symlink to a character device. Nothing here opens them.
 */
export function fifo(root: string, rel: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  execFileSync("mkfifo", [join(root, rel)]);
}

export function devZeroLink(root: string, rel: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  symlinkSync("/dev/zero", join(root, rel));
}

/** A bound unix socket at `rel`; close the returned server when done (the file stays). */
export function socketFile(root: string, rel: string): Promise<Server> {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(join(root, rel), () => resolve(server));
  });
}

/** Fails with `what` if `p` has not settled after `ms`: a hang becomes a failure with a name. */
export async function settlesWithin<T>(what: string, ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, hung]);
  } finally {
    clearTimeout(timer);
  }
}
