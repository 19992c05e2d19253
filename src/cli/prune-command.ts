import { join } from "node:path";
import { pruneKeptWalks } from "../sandbox/credential-walk-prune.js";
import { TERMINAL_PHASES } from "../session/types.js";
import { openStore } from "../store/open-store.js";
import { SqliteSessionStore } from "../store/sqlite-store.js";
import { expired, sweepEndedSessions } from "../workspace/housekeeping.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const PRUNE_USAGE = "patchgate prune [--older-than <age: 30m, 12h, 7d>] [--data-dir <d>]";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--older-than`: a whole number with a unit (m, h, d); absent = every ended session. */
function olderThanMs(value: string | undefined): number {
  if (value === undefined) return 0;
  const m = /^(\d+)([mhd])$/.exec(value.trim());
  if (!m) throw new UsageError(`--older-than must be a number with a unit (30m, 12h, 7d), got "${value}"`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/**
 * `patchgate prune`: forgets ended sessions (done, failed, cancelled, blocked) — their workspaces,
 * per-session caches and ledger — that ended at least `--older-than` ago, and the kept toolchain
 * walks no process would take again. A running or parked session is never touched: only ended ones
 * are chosen, and the ledger row goes only if the session is still ended when it is deleted.
 * Directories go first, so a prune cut short leaves nothing unknown behind.
 */
export async function pruneCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, { "older-than": { type: "string" }, "data-dir": { type: "string" } } as const, PRUNE_USAGE);
  if (parsed.help) return help(out, PRUNE_USAGE);
  if (parsed.positionals.length > 0) throw new UsageError(`prune takes no arguments\nusage: ${PRUNE_USAGE}`);
  const retentionMs = olderThanMs(parsed.values["older-than"]);
  const dir = dataDir(parsed.values["data-dir"], env);
  const store = await openStore({ dataDir: dir });
  try {
    if (!(store instanceof SqliteSessionStore)) throw new UsageError("prune works on the local SQLite store only");
    const now = Date.now();
    const ended = (await store.list()).filter((s) => expired(s, retentionMs, now));
    await sweepEndedSessions(store, { roots: [join(dir, "workspaces"), join(dir, "cache")], retentionMs, now, inUse: () => false });
    let removed = 0;
    for (const s of ended) if (await store.deleteSession(s.id, TERMINAL_PHASES)) removed++;
    const kept = (await store.list()).length;
    out.write(`pruned ${removed} ended session(s) from ${dir}; ${kept} kept\n`);
    const walks = await pruneKeptWalks(join(dir, "toolchain-walks"));
    if (walks.removed > 0) out.write(`removed ${walks.removed} kept toolchain walk(s) no longer true; ${walks.kept} kept\n`);
    return 0;
  } finally {
    await store.close();
  }
}
