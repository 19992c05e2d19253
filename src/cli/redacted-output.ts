import { redact } from "../safety/redact.js";

/**
 * The terminal is an outbound channel like any other: every write of the CLI, to stdout or stderr,
 * passes redaction here, so no command has to remember it (the plan shown for approval, a diff
 * preview, an error message). Each of our writes is a whole line or block, so a secret is never
 * split across two writes. Everything else about the stream (isTTY, columns, events) is the real one,
 * which readline needs for its prompts.
 */
export function redactedOutput<T extends NodeJS.WritableStream>(stream: T, secrets: readonly string[]): T {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === "write") {
        return (chunk: unknown, ...rest: unknown[]) => {
          const text = typeof chunk === "string" ? chunk : Buffer.isBuffer(chunk) ? chunk.toString("utf8") : chunk;
          return (target.write as (...a: unknown[]) => boolean)(typeof text === "string" ? redact(text, secrets) : text, ...rest);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
