/**
 * Writes to a pipe are asynchronous on POSIX: what the kernel's pipe buffer (64 KB) does not take at
 * once waits in node, and `process.exit()` drops it. `patchgate trace … | jq` then stopped at 65,536
 * bytes. So the CLI exits only once both streams have handed everything to the kernel.
 */
export async function exitAfterDrain(code: number, streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): Promise<never> {
  await Promise.all(streams.map(drained));
  process.exit(code);
}

/** Resolves once every earlier write on `stream` is done (streams finish writes in order), or it is gone. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write("", () => resolve());
  });
}

/**
 * A reader that went away (`patchgate trace … | head`) is not an error of ours: further output is
 * dropped and the command goes on, instead of dying on an unhandled EPIPE with a stack trace.
 */
export function ignoreClosedReader(stream: NodeJS.WriteStream): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}
