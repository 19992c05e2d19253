import { LaneTable } from "../queue/pg/lane-table.js";
import { operationsStatus, type OperationsStatus } from "../queue/status.js";
import { PostgresSessionStore } from "../store/pg-store.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { scaleOutUrl } from "./scale-out-env.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const STATUS_USAGE = "patchgate status [--json]  (scale-out: queue depth, running jobs, leases, failed jobs, dead letters; DATABASE_URL)";

/**
 * `patchgate status`: what an operator asks of a scale-out installation, read from its database.
 * `--json` prints what `/patchgate/health` answers with its token (src/github/health-route.ts).
 */
export async function statusCommand(argv: string[], out: NodeJS.WritableStream, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, { json: { type: "boolean" } } as const, STATUS_USAGE);
  if (parsed.help) return help(out, STATUS_USAGE);
  const store = new PostgresSessionStore(scaleOutUrl("status", env), { poolSize: 2 });
  try {
    const status = await operationsStatus(new LaneTable(store.pool).counts(), store);
    out.write(parsed.values.json ? `${JSON.stringify(status)}\n` : render(status));
    // Dead letters need an operator: a script can tell from the exit code.
    return status.dead.length > 0 ? 3 : 0;
  } finally {
    await store.close();
  }
}

function render(s: OperationsStatus): string {
  const lines = [`queue: ${s.queued} queued, ${s.running} running`];
  lines.push(
    `sessions: ${
      Object.entries(s.sessions)
        .map(([p, n]) => `${n} ${p}`)
        .join(", ") || "none"
    }`,
  );
  lines.push(`leases: ${s.leases.length === 0 ? "none" : ""}`);
  for (const l of s.leases) lines.push(`  ${l.lane}  held by ${l.owner} (epoch ${l.epoch}) until ${l.expiresAt}`);
  lines.push(`failed jobs (newest first): ${s.failed.length === 0 ? "none" : ""}`);
  for (const f of s.failed) lines.push(`  ${f.endedAt}  ${f.lane}  ${f.name}: ${f.error ?? ""}`);
  lines.push(`dead letters: ${s.dead.length === 0 ? "none" : ""}`);
  for (const d of s.dead) lines.push(`  ${d.endedAt}  ${d.lane}  ${d.name}: ${d.error ?? ""} (${d.attempts} attempts)`);
  return lines.map((l) => l.trimEnd()).join("\n") + "\n";
}
