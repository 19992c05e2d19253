import { createInterface } from "node:readline";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/**
 * A SQLite store in a process of its own, for kill -9 tests. Each line on stdin is one write, and a
 * line is printed once that write has resolved — the moment the app would go on (answer GitHub, call
 * the model, push):
 * - `<id>` receives a delivery, as the webhook handler does before its 2xx: `recorded <id> <state>`;
 * - `append <session> <n>` appends a user message at count n (n = 0 creates the session): `appended <session> <n>`.
 */
const store = SqliteSessionStore.open(process.argv[2]!);
for await (const line of createInterface({ input: process.stdin })) {
  const [first, session, n] = line.trim().split(" ");
  if (!first) continue;
  if (first === "append") {
    const count = Number(n);
    const event =
      count === 0
        ? {
            type: "session_created" as const,
            sessionId: session!,
            task: { title: "t", body: "b", source: { kind: "cli" as const, repo: "r" } },
            model: "m",
            settings: { maxStepsPerResume: 1, limits: {} },
          }
        : { type: "user_message" as const, content: `message ${count}` };
    await store.append(session!, [event], { expectedCount: count, phase: "queued" });
    process.stdout.write(`appended ${session} ${count}\n`);
    continue;
  }
  const state = await store.receiveDelivery({ id: first, event: "issue_comment", payload: JSON.stringify({ action: "created", id: first }) });
  process.stdout.write(`recorded ${first} ${state}\n`);
}
