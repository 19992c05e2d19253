import { patchgateApp } from "../../src/github/app.js";
import { AbortRegistry } from "../../src/queue/abort-registry.js";
import type { Job, Queue } from "../../src/queue/types.js";
import type { SqliteSessionStore } from "../../src/store/sqlite-store.js";

/** Takes the jobs and keeps them: what is measured is the webhook path, not the session work behind it. */
export class HoldingQueue implements Queue {
  readonly jobs: Job[] = [];
  enqueue(job: Job): void {
    this.jobs.push(job);
  }
  async idle(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * The app with only its intake to run: a delivery is parsed, stored, deduplicated and queued on
 * `queue`; no job runs, so no model, sandbox or GitHub is needed (the webhook tests and bench).
 */
export function intakeOnlyApp(store: SqliteSessionStore, queue: Queue, workspacesDir: string) {
  return patchgateApp({
    store,
    queue,
    aborts: new AbortRegistry(),
    llm: () => {
      throw new Error("unused");
    },
    model: "none",
    sandbox: async () => null,
    workspacesDir,
    gitBase: "http://github.invalid",
    secrets: [],
    checkRunThrottleMs: 1e9,
    log: () => {},
  });
}
