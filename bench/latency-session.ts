/**
 * The latency-bound session of `capacity_latency_bound` and `scaleout_overhead`: 10 model calls that
 * each take 3 s, and two runs of a small real suite in the sandbox (the baseline, and one run_tests
 * call midway). Almost all of its wall time is waiting for the model, as a real session's is.
 */
import path from "node:path";
import { createSession, prepareWorkspace } from "../src/agent/session-service.js";
import { resumeSession } from "../src/agent/run-session.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../src/agent/llm/types.js";
import { parseRepoConfig } from "../src/config/load-repo-config.js";
import type { Sandbox } from "../src/sandbox/types.js";
import type { SessionStore } from "../src/store/types.js";

export const CALLS = 10;
export const LATENCY_MS = 3000;
export const TEST = "node --test";
const HASH = "d".repeat(64);

/** Answers each call after LATENCY_MS: reads, and the tests once, midway. */
class LatencyModel implements LLMClient {
  readonly model = "latency";
  private n = 0;
  async complete(_req: LLMRequest): Promise<LLMResponse> {
    await new Promise((r) => setTimeout(r, LATENCY_MS));
    this.n += 1;
    const call =
      this.n === CALLS / 2
        ? { name: "run_tests", arguments: "{}" }
        : { name: "read_file", arguments: JSON.stringify({ path: this.n % 2 ? "src/add.js" : "test/t1.test.mjs" }) };
    return {
      content: null,
      toolCalls: [{ id: `call_${this.n}`, ...call }],
      usage: { promptTokens: 1000, completionTokens: 20, estimated: false },
      model: this.model,
      latencyMs: LATENCY_MS,
      retries: 0,
    };
  }
}

/** One whole session on `source` (a repository made by bench/concurrency.ts's makeRepo), its clone under `root`; throws unless it ran as shaped. */
export async function latencySession(store: SessionStore, root: string, source: string, sandbox: Sandbox, id: string): Promise<void> {
  const ledger = await createSession(store, {
    task: { title: "bench", body: "bench", source: { kind: "cli", repo: source } },
    model: "latency",
    sessionId: id,
  });
  const workspace = await prepareWorkspace(ledger, { source, dir: path.join(root, id) });
  await ledger.append(
    { type: "plan_submitted", plan: { summary: "bench", steps: ["read", "test"] }, hash: HASH },
    { type: "plan_approved", hash: HASH, by: { login: "bench", via: "comment" } },
  );
  const cfg = parseRepoConfig(`test: ${TEST}\n`);
  if (!cfg.ok) throw new Error(cfg.error.message);
  await resumeSession(ledger, { llm: new LatencyModel(), sandbox, workspace, repoConfig: cfg.config, maxSteps: CALLS });
  const calls = ledger.history.filter((e) => e.type === "llm_called").length;
  const runs = ledger.history.filter((e) => (e.type === "baseline_run" || e.type === "test_run") && e.exitCode === 0).length;
  if (calls !== CALLS || runs !== 2) throw new Error(`session ${id}: ${calls} model calls, ${runs} passing test runs (expected ${CALLS} and 2)`);
}
