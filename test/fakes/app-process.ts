import { join } from "node:path";
import { createInterface } from "node:readline";
import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import { receiptSettings } from "../../src/github/receipt-settings.js";
import { wallClockSchedules } from "../../src/github/session-work/schedule-timer.js";
import { startApp, type AppSettings } from "../harness/app-instance.js";

/**
 * A real Patchgate process for crash tests: the app of test/harness/app-instance.ts (Probot, its HTTP
 * server, the SQLite store) configured from `PATCHGATE_TEST_APP` (JSON), talking to the test's fake
 * GitHub and fake model, signing receipts when asked. It prints `listening <webhook url>` once it
 * takes deliveries, then each log line, so the test can wait on what happened — and kill it with
 * SIGKILL wherever it likes.
 */
type Settings = Omit<AppSettings, "llm" | "log" | "receipts"> & {
  openaiBaseURL: string;
  apiKey: string;
  /** Receipts on: the signing key is loaded (created by the first process) from this directory, as every restart finds it. */
  receiptsDataDir?: string;
  /** Schedules on the wall clock, as the app's environment wires them (a worker's pass each minute through the queue). */
  wallClockSchedules?: boolean;
};

const s = JSON.parse(process.env.PATCHGATE_TEST_APP ?? "{}") as Settings;
const receipts = s.receiptsDataDir ? { ...receiptSettings(s.receiptsDataDir, {}), dir: join(s.receiptsDataDir, "receipt-clones") } : undefined;
const log = (line: string) => process.stdout.write(`log ${line}\n`);
const app = await startApp({
  ...s,
  receipts,
  ...(s.wallClockSchedules && { schedules: wallClockSchedules(log) }),
  llm: () => createOpenAIClient({ apiKey: s.apiKey, baseURL: s.openaiBaseURL, model: s.model }),
  log,
});
process.stdout.write(`listening ${app.webhookUrl}\n`);

// `settle <token>` on stdin: once every job queued so far (boot resumes included) has finished,
// `settled <token> errors=<n>`, so a test waits on the app's own signal instead of guessing.
for await (const line of createInterface({ input: process.stdin })) {
  const token = /^settle (\S+)$/.exec(line.trim())?.[1];
  if (!token) continue;
  await app.deps.queue.idle();
  process.stdout.write(`settled ${token} errors=${app.errors.length}\n`);
}
