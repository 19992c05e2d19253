import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "./sqlite-store.js";
import type { SessionStore } from "./types.js";

/** Whether a DATABASE_URL names PostgreSQL (the scale-out store); anything else is refused by openStore. */
export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * `databaseUrl` (DATABASE_URL) = postgres://… selects PostgreSQL; absent or empty, the embedded
 * default `<dataDir>/patchgate.sqlite`, the directory created if missing. The PostgreSQL driver is
 * loaded only when it is asked for.
 */
export async function openStore(opts: { dataDir: string; databaseUrl?: string }): Promise<SessionStore> {
  if (opts.databaseUrl) {
    if (!isPostgresUrl(opts.databaseUrl))
      throw new Error(`DATABASE_URL must start with postgres:// or postgresql:// (got ${opts.databaseUrl.split(":")[0]}:…)`);
    const { PostgresSessionStore } = await import("./pg-store.js");
    return new PostgresSessionStore(opts.databaseUrl);
  }
  mkdirSync(opts.dataDir, { recursive: true });
  return SqliteSessionStore.open(join(opts.dataDir, "patchgate.sqlite"));
}
