import { prepareRetry } from "../agent/retry-session.js";
import { Ledger } from "../store/ledger.js";
import { openStore } from "../store/open-store.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { resumeCommand } from "./resume-command.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { resolveSessionId } from "./session-id.js";
import { SESSION_OPTIONS } from "./session-options.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const RETRY_USAGE =
  "patchgate retry <session|prefix> [--approve-plan] [--approve-writes] [--out <patch>] [--data-dir <d>] [--mcp-config <file>] [--settings <file>]";

/**
 * `patchgate retry <session>`: what `/agent retry` does on GitHub (the same prepareRetry): a failed
 * setup runs again, a session that failed after plan approval is reopened where it failed, and the
 * session then continues as `resume` continues it. A blocked or cancelled session is not continued.
 */
export async function retryCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, SESSION_OPTIONS, RETRY_USAGE);
  if (parsed.help) return help(out, RETRY_USAGE);
  if (parsed.positionals.length !== 1) throw new UsageError(`a session id (or a prefix of one) is required\nusage: ${RETRY_USAGE}`);
  const dir = dataDir(parsed.values["data-dir"], env);
  const store = await openStore({ dataDir: dir });
  let step;
  let sessionId: string;
  try {
    sessionId = await resolveSessionId(store, parsed.positionals[0], dir);
    const ledger = await Ledger.open(store, sessionId);
    step = await prepareRetry(ledger, "cli");
    if (step.kind === "start_over") {
      const s = ledger.state;
      throw new UsageError(
        `session ${sessionId} is ${s.phase} and is not continued; start a new one: patchgate run --repo ${s.task.source.repo} ${JSON.stringify(s.task.body)}`,
        1,
      );
    }
  } finally {
    await store.close();
  }
  if (step.kind === "done") {
    out.write(`session ${sessionId} is done; nothing to retry\n`);
    return 0;
  }
  return resumeCommand([sessionId, ...argv.filter((a) => a !== parsed.positionals[0])], out);
}
