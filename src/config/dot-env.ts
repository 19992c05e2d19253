import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { hostEnvironment } from "../process/index.js";
import { FatalError } from "../errors/index.js";

/** `.env` cannot be read or parsed: one line naming the file. */
export class DotEnvError extends FatalError {
  readonly kind = "invalid_dot_env";
}

/**
 * Reads `.env` from the working directory into `env` exactly as Probot does for the app (node's
 * `parseEnv`, the file's values over the environment's), so `npm start` and `patchgate` started in
 * the same directory see the same settings. Called first, before any module reads a variable.
 * Returns the path read, or null when there is no `.env`.
 */
export function applyDotEnv(dir = process.cwd(), env: NodeJS.ProcessEnv = hostEnvironment()): string | null {
  const path = join(dir, ".env");
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DotEnvError(`${path} cannot be read: ${(e as Error).message}`);
  }
  Object.assign(env, parseEnv(text));
  return path;
}
