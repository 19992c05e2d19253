import { parseArgs } from "node:util";
import { openStore } from "../store/index.js";
import { exportTrace } from "../trace/export.js";
import { secretsFromEnv } from "../safety/secrets.js";
import { formatTimelineRow, timelineRows } from "./timeline-format.js";
import { dataDir, UsageError } from "./runtime-env.js";

const OPTIONS = { "data-dir": { type: "string" }, json: { type: "boolean" }, jsonl: { type: "boolean" } } as const;

async function loadEvents(argv: string[]) {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const sessionId = positionals[0];
  if (!sessionId) throw new UsageError("a session id is required");
  const store = openStore({ dataDir: dataDir(values["data-dir"]) });
  try {
    const events = await store.load(sessionId);
    if (events.length === 0) throw new UsageError(`no session ${sessionId}`);
    return { events, values };
  } finally {
    await store.close();
  }
}

/** `patchgate show <session>`: the timeline, one line per event. */
export async function showCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { events } = await loadEvents(argv);
  for (const row of timelineRows(events, secretsFromEnv())) out.write(formatTimelineRow(row) + "\n");
  return 0;
}

/** `patchgate trace <session> [--jsonl|--json]`: the whole redacted ledger for tools and people. */
export async function traceCommand(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { events, values } = await loadEvents(argv);
  out.write(exportTrace(events, values.json ? "json" : "jsonl", secretsFromEnv()));
  out.write("\n");
  return 0;
}
