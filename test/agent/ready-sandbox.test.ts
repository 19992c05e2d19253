import { readySandbox } from "../../src/agent/ready-sandbox.js";
import type { CallEnv } from "../../src/agent/call-env.js";
import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import type { Sandbox, SandboxRunRequest } from "../../src/sandbox/types.js";
import { emptyState } from "../../src/session/empty-state.js";
import type { ToolContext } from "../../src/tools/tool.js";

/**
 * At the start of a resume the session's sandbox is readied beside the loop: in execute mode, for
 * the test command exactly as run_tests will ask for it, so that the first test run finds it started.
 * A recording sandbox stands in (nothing starts).
 */
function envWith(mode: "plan" | "execute") {
  const prepared: SandboxRunRequest[] = [];
  const sandbox: Sandbox = {
    backend: "bubblewrap",
    run: () => Promise.reject(new Error("readying runs nothing")),
    prepare: async (req) => void prepared.push(req),
  };
  const parsed = parseRepoConfig("test: npm test\n");
  if (!parsed.ok) throw new Error(parsed.error.message);
  const ctx = { workspace: { root: "/ws" }, state: { ...emptyState(), mode }, sandbox, repoConfig: parsed.config } as unknown as ToolContext;
  const env = { context: () => ctx } as unknown as CallEnv;
  return { env, prepared, testSeconds: parsed.config.timeouts.test_seconds };
}

test("in execute mode the test command's sandbox is readied: offline, writable, the test's time limit", () => {
  const { env, prepared, testSeconds } = envWith("execute");
  readySandbox(env, false);
  expect(prepared).toHaveLength(1);
  expect(prepared[0]).toMatchObject({
    argv: ["/bin/sh", "-c", "npm test"],
    workspace: "/ws",
    network: false,
    readOnlyWorkspace: false,
    setup: false,
    timeoutMs: testSeconds * 1000,
  });
});

test("a baseline that runs readies its own sandbox: nothing more is readied", () => {
  const { env, prepared } = envWith("execute");
  readySandbox(env, true);
  expect(prepared).toEqual([]);
});

test("in plan mode no test runs, so no sandbox is started", () => {
  const { env, prepared } = envWith("plan");
  readySandbox(env, false);
  expect(prepared).toEqual([]);
});
