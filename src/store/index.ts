import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SqliteSessionStore } from "./sqlite-store.js";
import type { SessionStore } from "./types.js";

export * from "./types.js";
export { Ledger, type EventListener } from "./ledger.js";
export { SqliteSessionStore } from "./sqlite-store.js";

/** The embedded default: `<dataDir>/patchgate.sqlite`, the directory created if missing. */
export function openStore(opts: { dataDir: string }): SessionStore {
  mkdirSync(opts.dataDir, { recursive: true });
  return SqliteSessionStore.open(join(opts.dataDir, "patchgate.sqlite"));
}
