import { join } from "node:path";
import type { StoredEvent } from "../../src/session/events.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/** The events of the only (or newest) session in a CLI data directory, read from its SQLite file. */
export async function sessionHistory(dataDir: string): Promise<StoredEvent[]> {
  const store = SqliteSessionStore.open(join(dataDir, "patchgate.sqlite"));
  try {
    const [s] = await store.list();
    return await store.load(s.id);
  } finally {
    await store.close();
  }
}
