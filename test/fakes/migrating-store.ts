import Database from "better-sqlite3";
import pg from "pg";
import { migrate } from "../../src/store/sqlite-schema.js";
import { migratePg } from "../../src/store/pg-schema.js";

/**
 * A store migration in a process of its own, for kill -9 tests: MIGRATING_STORE is `sqlite <file>` or
 * `pg <url>`. Once
 * the chain step has written its first session it prints `chained <id>` and stops dead inside the
 * migration's transaction (the thread blocks, nothing is committed), where the test kills it.
 */
const [kind, where] = (process.env.MIGRATING_STORE ?? "").split(" ");

function chainedThenHold(sessionId: string): void {
  process.stdout.write(`chained ${sessionId}\n`);
  // Blocks this thread for good while the transaction is open; stdout to a pipe was written synchronously.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

if (kind === "sqlite") {
  const db = new Database(where!, { timeout: 5000 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  migrate(db, { chained: chainedThenHold });
} else {
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  await migratePg(client, { chained: chainedThenHold });
}
process.stdout.write("migrated\n");
