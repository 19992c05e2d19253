import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readRecording, UnreplayableSessionError } from "../eval/index.js";
import { replaySession } from "../eval/index.js";
import type { Recording, ReplayResult } from "../eval/index.js";
import { openStore } from "../store/open-store.js";
import type { StoredEvent } from "../session/events.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { repoSetup } from "./repo-setup.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { resolveSessionId } from "./session-id.js";
import { RepoConfigSchema } from "../config/repo-config.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const REPLAY_USAGE = "patchgate replay <session|prefix> [--repo <path|url>] [--json] [--data-dir <d>]";

const OPTIONS = {
  repo: { type: "string" },
  json: { type: "boolean", default: false },
  "data-dir": { type: "string" },
} as const;

/**
 * `patchgate replay <session>`: runs a stored session again in a fresh clone from its recorded model
 * answers and human decisions, through the same gates, and says whether it made the same decisions
 * and reached the same tree. Exit 0 when it did, 1 with the first diverging event when not.
 */
export async function replayCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, OPTIONS, REPLAY_USAGE);
  if (parsed.help) return help(out, REPLAY_USAGE);
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`a session id (or a prefix of one) is required\nusage: ${REPLAY_USAGE}`);
  const dir = dataDir(values["data-dir"], env);
  const { sessionId, events, rec } = await loadSession(positionals[0], dir);
  const source = values.repo ?? sourceOf(rec);
  const scratch = mkdtempSync(join(dir, `replay-${sessionId.slice(0, 8)}-`));
  try {
    const result = await replaySession({
      events,
      source,
      dir: scratch,
      runtime: async (ws) => {
        const setup = await repoSetup(ws.root);
        // A session from GitHub recorded the config it started under and kept its rules: so does its replay.
        const config = rec.repoConfig ? RepoConfigSchema.parse(rec.repoConfig) : setup.config;
        return { sandbox: setup.sandbox, repoConfig: { ...config, test: rec.settings.testCommand ?? config.test ?? setup.testCommand } };
      },
    });
    out.write(values.json ? `${JSON.stringify(jsonOf(sessionId, result), null, 2)}\n` : `${lineOf(sessionId, result)}\n`);
    return result.same ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function loadSession(given: string, dir: string): Promise<{ sessionId: string; events: StoredEvent[]; rec: Recording }> {
  const store = await openStore({ dataDir: dir });
  try {
    const sessionId = await resolveSessionId(store, given, dir);
    const events = await store.load(sessionId);
    try {
      return { sessionId, events, rec: readRecording(events) };
    } catch (e) {
      if (UnreplayableSessionError.isInstance(e)) throw new UsageError(`cannot replay: ${e.message}`);
      throw e;
    }
  } finally {
    await store.close();
  }
}

/** A local session recorded the repository it cloned; one from GitHub recorded only its name, so --repo is needed. */
function sourceOf({ task }: Recording): string {
  if (task.source.kind === "cli") return task.source.repo;
  throw new UsageError(`the session came from ${task.source.kind}: give the repository to clone with --repo\nusage: ${REPLAY_USAGE}`);
}

function lineOf(sessionId: string, r: ReplayResult): string {
  const d = r.firstDivergence;
  if (!d) return `replay of ${sessionId}: the same decisions, tree ${r.treeId ?? "(none published)"}`;
  return `replay of ${sessionId} diverges at event ${d.seq}: ${d.what}; recorded ${short(d.recorded)}, replayed ${short(d.replayed)}`;
}

/** One side of a divergence for the one line: hashes cut to 12 characters (`--json` keeps them whole). */
function short(side: string | null): string {
  return side === null ? "nothing" : side.replace(/\b[0-9a-f]{16,}\b/g, (h) => `${h.slice(0, 12)}…`);
}

function jsonOf(sessionId: string, r: ReplayResult) {
  return { sessionId, same: r.same, treeId: r.treeId, recordedTreeId: r.recordedTreeId, ...(r.firstDivergence && { firstDivergence: r.firstDivergence }) };
}
