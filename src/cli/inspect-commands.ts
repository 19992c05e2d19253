import { openStore } from "../store/open-store.js";
import { stringify } from "yaml";
import { redactDeep } from "../safety/redact.js";
import { fold } from "../session/reducer.js";
import { checkRunTitle } from "../trace/check-run.js";
import { exportTrace } from "../trace/export.js";
import { renderReport } from "../trace/report/report.js";
import { parseCommandArgs } from "./cli-args.js";
import { resolveSessionId } from "./session-id.js";
import { formatTimelineRow, timelineRows } from "./timeline-format.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { secretsFromCli } from "./cli-secrets.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const SHOW_USAGE = "patchgate show <session|prefix> [--markdown|--events] [--data-dir <d>] [--settings <file>]";
export const TRACE_USAGE = "patchgate trace <session|prefix> [--jsonl|--json|--script] [--data-dir <d>] [--settings <file>]";

const OPTIONS = {
  "data-dir": { type: "string" },
  json: { type: "boolean" },
  jsonl: { type: "boolean" },
  script: { type: "boolean" },
  markdown: { type: "boolean" },
  events: { type: "boolean" },
  settings: { type: "string" },
} as const;

async function loadEvents(argv: string[], usage: string, env: OperatorEnv) {
  const parsed = parseCommandArgs(argv, OPTIONS, usage);
  if (parsed.help) return null;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError(`a session id (or a prefix of one) is required\nusage: ${usage}`);
  const dir = dataDir(values["data-dir"], env);
  const store = await openStore({ dataDir: dir });
  try {
    const events = await store.load(await resolveSessionId(store, positionals[0], dir));
    return { events, values, secrets: await secretsFromCli(values.settings, dir, env) };
  } finally {
    await store.close();
  }
}

/**
 * `patchgate show <session>`: the report a reviewer reads in the check run — summary, then the
 * timeline by step — as plain text, or as the very markdown of the check run with `--markdown`.
 * `--events` lists the raw events instead, one line each.
 */
export async function showCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const loaded = await loadEvents(argv, SHOW_USAGE, env);
  if (loaded === null) return help(out, SHOW_USAGE);
  const { events, values, secrets } = loaded;
  if (values.events) {
    for (const row of timelineRows(events, secrets)) out.write(formatTimelineRow(row) + "\n");
    return 0;
  }
  const state = fold(events);
  const format = values.markdown ? "markdown" : "text";
  const report = renderReport(state, events, { sessionId: state.sessionId, format, secrets });
  out.write(`${checkRunTitle(state, secrets)}\n\n${report.summary}\n\n${report.timeline}\n`);
  return 0;
}

/**
 * `patchgate trace <session> [--jsonl|--json|--script]`: the whole redacted ledger for tools and
 * people; `--script`: only the model's replies, as a case's `script:` to replay the session offline.
 */
export async function traceCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const loaded = await loadEvents(argv, TRACE_USAGE, env);
  if (loaded === null) return help(out, TRACE_USAGE);
  if (loaded.values.script) {
    // Loaded here, not at the top: the eval runner behind it is most of the code, and `show`, `list`
    // and `trace` without --script need none of it.
    const { scriptFromEvents } = await import("../eval/index.js");
    out.write(stringify({ script: redactDeep(scriptFromEvents(loaded.events), loaded.secrets) }));
    return 0;
  }
  out.write(exportTrace(loaded.events, loaded.values.json ? "json" : "jsonl", loaded.secrets));
  out.write("\n");
  return 0;
}

export function help(out: NodeJS.WritableStream, usage: string): number {
  out.write(`usage: ${usage}\n`);
  return 0;
}
