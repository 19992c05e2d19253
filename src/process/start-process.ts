import { helper } from "./helper-connection.js";
import { StartedProcess, type StartOptions } from "./started-process.js";

export type { StartOptions } from "./started-process.js";
export { StartedProcess } from "./started-process.js";

/**
 * The single way the app starts a process (test/process/no-direct-spawn.integration.test.ts holds every other
 * file in src/ to it). The fork happens in the spawn helper (helper-source.ts), never in this process,
 * whose event loop would otherwise stall for each fork in proportion to its memory.
 */
export function startProcess(options: StartOptions): StartedProcess {
  return new StartedProcess(helper(), options);
}
