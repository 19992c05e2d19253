import { readFileSync } from "node:fs";
import { join } from "node:path";
import { approvePlan, approveWrites, autoApproveWrites } from "../../src/agent/approvals.js";
import { compactionFor } from "../../src/agent/context/compaction-thresholds.js";
import { clientOptions, llmConfigFromEnv } from "../../src/agent/llm/llm-config.js";
import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import { vaultFromEnv } from "../../src/agent/llm/reasoning-vault.js";
import type { LLMClient } from "../../src/agent/llm/types.js";
import { toolResultOf } from "../fakes/chat/turns.js";
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

/**
 * The provider table of docs/configuration.md, line by line: a whole session (plan, approval, edit, tests, finish)
 * against a fake that behaves like that provider, configured only through the environment variables
 * the table names. Each provider refuses what the real one refuses; none may see a violation.
 */
const cli = { login: "maintainer", via: "cli" as const };
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
const read = (path: string, extra: object = {}) => ({ name: "read_file", arguments: { path, ...extra } });
const plan = { name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator", "run the tests"] } };
const edit = { name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } };
const tests = { name: "run_tests", arguments: {} };
const finish = { name: "finish", arguments: { summary: "add adds" } };
const story: FakeStep[] = [{ toolCalls: [read("src/add.js")] }, { toolCalls: [plan] }, { toolCalls: [edit] }, { toolCalls: [tests] }, { toolCalls: [finish] }];

interface Run {
  server: FakeOpenAIServer;
  h: SessionHarness;
  llm: () => LLMClient;
}

async function start(steps: FakeStep[], fake: FakeOpenAIOptions, env: (baseURL: string) => Record<string, string>, files = BUGGY_ADD_REPO): Promise<Run> {
  const server = await startFakeOpenAI(steps, fake);
  const h = await SessionHarness.create(files);
  const vars = { OPENAI_API_KEY: "sk-provider-test", PATCHGATE_MODEL: "some-model", PATCHGATE_LLM_TIMEOUT_S: "20", ...env(server.baseURL) };
  // A new client per resume, with the reasoning key in the data directory, as `patchgate resume` does.
  const llm = () => createOpenAIClient({ ...clientOptions(llmConfigFromEnv(vars), vaultFromEnv(vars, h.dataDir)), sleep: async () => {} });
  return { server, h, llm };
}

/** Plan, approval, then the execute phase with writes pre-approved; the session must reach publishing. */
async function runStory(r: Run, extra: Parameters<SessionHarness["resume"]>[1] = {}): Promise<void> {
  expect(await r.h.resume(r.llm(), extra)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
  await approvePlan(r.h.ledger, cli, r.h.ledger.state.planHash!);
  await autoApproveWrites(r.h.ledger, cli);
  expect(await r.h.resume(r.llm(), extra)).toEqual({ kind: "ready_to_publish" });
  expect(readFileSync(join(r.h.workspace.root, "src/add.js"), "utf8")).toBe(FIXED);
}

describe("each provider of the documented table, through a whole session", () => {
  let run: Run | undefined;
  afterEach(async () => {
    const violations = run?.server.violations ?? [];
    await run?.server.close();
    await run?.h.dispose();
    run = undefined;
    expect(violations).toEqual([]);
  });

  test("OpenAI: strict tool schemas, reasoning effort, no parallel calls, max_completion_tokens; strict mode's nulls read as absent", async () => {
    const steps: FakeStep[] = [{ toolCalls: [read("src/add.js", { start_line: null, end_line: null })] }, ...story.slice(1)];
    run = await start(steps, { provider: "openai" }, (url) => ({
      OPENAI_BASE_URL: url,
      PATCHGATE_LLM_PROVIDER: "openai",
      PATCHGATE_LLM_STRICT_TOOLS: "true",
      PATCHGATE_LLM_REASONING_EFFORT: "low",
      PATCHGATE_LLM_PARALLEL_TOOL_CALLS: "false",
      PATCHGATE_LLM_MAX_TOKENS: "4096",
    }));
    await runStory(run);
    const body = run.server.requests[0].body;
    expect(body).toMatchObject({ reasoning_effort: "low", parallel_tool_calls: false, max_completion_tokens: 4096 });
    expect((body.tools as { function: { strict?: boolean } }[]).every((t) => t.function.strict === true)).toBe(true);
    expect(run.h.results()[0]).toEqual({ tool: "read_file", ok: true });
  });

  test("Azure OpenAI: deployment URL, api-version, api-key header, the content-filter chunk first", async () => {
    run = await start(story, { provider: "azure" }, (url) => ({ OPENAI_BASE_URL: url, PATCHGATE_LLM_PROVIDER: "azure", OPENAI_API_VERSION: "2024-10-21" }));
    await runStory(run);
    expect(
      run.server.requests.every((r) => r.url === "/openai/deployments/some-model/chat/completions?api-version=2024-10-21" && r.apiKey === "sk-provider-test"),
    ).toBe(true);
  });

  test("DeepSeek thinking mode: every tool-call turn carries its reasoning_content back, also after a new process", async () => {
    run = await start(story, { provider: "deepseek" }, (url) => ({ OPENAI_BASE_URL: url }));
    await runStory(run);
    // The reasoning is sealed in the ledger, never in the clear.
    const stored = JSON.stringify(run.h.ledger.history);
    expect(stored).not.toContain("Thinking about which tool to use.");
    expect(run.h.ledger.history.filter((e) => e.type === "assistant_message" && e.reasoning?.startsWith("rv1:"))).toHaveLength(5);
  });

  test("OpenRouter: reasoning_details sent back unchanged; a 200 carrying an error is retried", async () => {
    const steps: FakeStep[] = [...story.slice(0, 3), { errorBody: { message: "Provider returned error", code: 502 } }, ...story.slice(3)];
    run = await start(steps, { provider: "openrouter" }, (url) => ({ OPENAI_BASE_URL: url }));
    await runStory(run);
    const calls = run.h.ledger.history.filter((e) => e.type === "llm_called");
    expect(calls.map((e) => (e.type === "llm_called" ? e.retries : -1))).toEqual([0, 0, 0, 1, 0]);
  });

  test("vLLM (Mistral-style template): alternation kept; a malformed call and a call cut at max_tokens are answered, and history stays parseable", async () => {
    const steps: FakeStep[] = [
      { content: "Let me look at the code first.", toolCalls: [{ name: "read_file", arguments: '{"path": "src/add.js"' }, read("src/add.js")] },
      { toolCalls: [plan] },
      { toolCalls: [{ name: "write_file", arguments: '{"path": "src/add.js", "content": "export function add(a, b) {\\n  ret' }], finishReason: "length" },
      { toolCalls: [edit] },
      { toolCalls: [tests] },
      { toolCalls: [finish] },
    ];
    run = await start(steps, { provider: "vllm" }, (url) => ({
      OPENAI_BASE_URL: url,
      PATCHGATE_LLM_MAX_TOKENS: "512",
      PATCHGATE_LLM_MAX_TOKENS_RAISED: "2048",
    }));
    await runStory(run);
    expect(run.h.results().map((r) => r.code ?? "ok")).toEqual(["invalid_arguments", "ok", "ok", "output_truncated", "ok", "ok", "ok"]);
    // Stored as the model sent it; sent back as {} (vLLM runs json.loads on the history).
    const first = run.h.ledger.state.conversation[1];
    expect(first.role === "assistant" && first.toolCalls[0].arguments).toBe('{"path": "src/add.js"');
    const cut = run.h.ledger.history.find((e) => e.type === "tool_result" && !e.result.ok && e.result.error.code === "output_truncated");
    expect(cut?.type === "tool_result" && !cut.result.ok && cut.result.error.message).toContain("cut off at the output token limit");
    // After the cut, the raised limit is asked for.
    expect(run.server.requests.map((r) => r.body.max_tokens)).toEqual([512, 512, 512, 2048, 2048, 2048]);
  });

  test("Ollama: tool calls with finish_reason stop; a small context window is respected through compaction", async () => {
    const notes = Array.from({ length: 120 }, (_, i) => `note ${i}: the add function is exported from src/add.js and used by the calculator.`).join("\n");
    const reads: FakeStep[] = Array.from({ length: 6 }, () => ({ toolCalls: [read("NOTES.md")] }));
    const summary = {
      content: JSON.stringify({ goals: ["fix add"], facts: ["NOTES.md describes add"], decisions: [], files_touched: ["NOTES.md (read)"], open_questions: [] }),
    };
    const window = 8192;
    run = await start(
      [...reads, ...story],
      { provider: "ollama", contextTokens: window, summarise: () => summary },
      (url) => ({ OPENAI_BASE_URL: url, PATCHGATE_LLM_CONTEXT_TOKENS: String(window), PATCHGATE_LLM_MAX_TOKENS: "1024" }),
      {
        ...BUGGY_ADD_REPO,
        "NOTES.md": notes,
      },
    );
    await runStory(run, { compaction: compactionFor({ contextTokens: window, maxTokens: 1024 }) });
    expect(run.h.ledger.history.some((e) => e.type === "context_compacted")).toBe(true);
  });

  test("LiteLLM: ids numbered from 0 in every answer, parallel calls, a batch approved as a whole", async () => {
    const steps: FakeStep[] = [
      { toolCalls: [read("src/add.js"), read("README.md")] },
      { toolCalls: [plan] },
      { toolCalls: [edit, { name: "write_file", arguments: { path: "NOTES.md", content: "fixed add\n" } }] },
      { toolCalls: [tests] },
      { toolCalls: [finish] },
    ];
    run = await start(steps, { provider: "litellm" }, (url) => ({ OPENAI_BASE_URL: url }));
    expect(await run.h.resume(run.llm())).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    await approvePlan(run.h.ledger, cli, run.h.ledger.state.planHash!);
    expect(await run.h.resume(run.llm())).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
    const pending = run.h.ledger.state.pending!;
    expect(pending.calls.map((c) => c.tool)).toEqual(["edit_file", "write_file"]);
    await approveWrites(run.h.ledger, cli, pending.digest);
    expect(await run.h.resume(run.llm())).toEqual({ kind: "ready_to_publish" });
    const ids = run.h.ledger.state.conversation.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => [c.id, c.providerId ?? null]) : []));
    expect(ids).toEqual([
      ["call_0", null],
      ["call_1", null],
      ["pg0000003", "call_0"],
      ["pg0000004", "call_0"],
      ["pg0000005", "call_1"],
      ["pg0000006", "call_0"],
      ["pg0000007", "call_0"],
    ]);
    expect(toolResultOf(run.h.ledger.state.conversation.at(-1)!)).toMatchObject({ ok: true, data: { accepted: true } });
  });
});
