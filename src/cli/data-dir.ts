import { homedir } from "node:os";
import { join } from "node:path";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

/** Where the CLI keeps sessions, workspaces and keys: the flag, else PATCHGATE_DATA_DIR, else ~/.patchgate. */
export function dataDir(flag?: string, env: OperatorEnv = processOperatorEnv()): string {
  return flag ?? env.PATCHGATE_DATA_DIR ?? join(homedir(), ".patchgate");
}
