import { openStore } from "../store/open-store.js";
import { redact } from "../safety/redact.js";
import { parseCommandArgs, positiveInt } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { dataDir } from "./data-dir.js";
import { secretsFromCli } from "./cli-secrets.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const LIST_USAGE = "patchgate list [--limit <n>] [--data-dir <d>] [--settings <file>]";

/** `patchgate list`: the newest sessions, one line each: short id, phase, when, repository and task. */
export async function listCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, { limit: { type: "string" }, "data-dir": { type: "string" }, settings: { type: "string" } } as const, LIST_USAGE);
  if (parsed.help) return help(out, LIST_USAGE);
  const limit = positiveInt("limit", parsed.values.limit) ?? 20;
  const dir = dataDir(parsed.values["data-dir"], env);
  const store = await openStore({ dataDir: dir });
  try {
    const sessions = await store.list();
    if (sessions.length === 0) out.write(`no sessions in ${dir}\n`);
    const secrets = await secretsFromCli(parsed.values.settings, dir, env);
    for (const s of sessions.slice(0, limit)) {
      const [first] = await store.load(s.id);
      const task = first?.type === "session_created" ? `${first.task.source.repo}  ${first.task.title}` : "";
      out.write(redact(`${s.id.slice(0, 8)}  ${s.phase.padEnd(22)}  ${s.createdAt.slice(0, 19).replace("T", " ")}  ${task}`, secrets) + "\n");
    }
    if (sessions.length > limit) out.write(`… ${sessions.length - limit} older (--limit ${sessions.length})\n`);
    return 0;
  } finally {
    await store.close();
  }
}
