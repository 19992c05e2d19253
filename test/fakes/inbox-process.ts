import { createInterface } from "node:readline";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/**
 * The inbox's store in a process of its own, for kill -9 tests: each line `<id>` on stdin is received
 * as a delivery (as the webhook handler does before its 2xx), and `recorded <id> <state>` is printed
 * once receiveDelivery has resolved — the moment the app would answer GitHub.
 */
const store = SqliteSessionStore.open(process.argv[2]!);
for await (const line of createInterface({ input: process.stdin })) {
  const id = line.trim();
  if (!id) continue;
  const state = await store.receiveDelivery({ id, event: "issue_comment", payload: JSON.stringify({ action: "created", id }) });
  process.stdout.write(`recorded ${id} ${state}\n`);
}
