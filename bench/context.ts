/**
 * Context budget bench: prompt tokens per step over a scripted 200-step session, with and without
 * compaction. The goal is a flat prompt: with compaction, max/median ≤ 2 (without it the prompt
 * grows with every step). Tokens are o200k estimates of buildContext's messages; tool definitions
 * are left out (a constant on both sides). Run alone: `npx tsx bench/context.ts`.
 */
import { pathToFileURL } from "node:url";
import { buildContext } from "../src/agent/context/build-context.js";
import { compact, shouldCompact } from "../src/agent/context/compaction.js";
import { systemPrompt } from "../src/agent/context/system-prompt.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../src/agent/llm/types.js";
import type { SessionEvent } from "../src/session/events.js";
import { fold, reduce } from "../src/session/reducer.js";
import type { SessionState } from "../src/session/state.js";
import { estimateMessagesTokens } from "../src/agent/llm/tokens.js";
import { median, type Figures } from "./figure.js";
import { codeText, rng, WORDS } from "./fixtures.js";

export { codeText, rng } from "./fixtures.js";

const STEPS = 200;
// The loop's defaults (src/agent/model-loop.ts).
const THRESHOLDS = { maxPromptTokens: 24_000, maxTurns: 60, keepRecent: 12 };

/** One step's tool call and the size of its output: the mix of a typical fix session. */
export function scriptedStep(r: () => number, i: number): { tool: string; args: unknown; output: unknown; text: string | null } {
  const roll = r();
  const file = `src/module${Math.floor(r() * 30)}.ts`;
  const text = r() < 0.3 ? codeText(r, 100 + r() * 300) : null;
  if (roll < 0.4) return { tool: "read_file", args: { path: file }, output: { content: codeText(r, 2000 + r() * 14000) }, text };
  if (roll < 0.55) return { tool: "search_code", args: { pattern: WORDS[i % WORDS.length] }, output: { matches: codeText(r, 1000 + r() * 4000) }, text };
  if (roll < 0.8) {
    const args = { path: file, old: codeText(r, 100 + r() * 800), new: codeText(r, 100 + r() * 900) };
    return { tool: "edit_file", args, output: { diff: codeText(r, 300 + r() * 1200) }, text };
  }
  return { tool: "run_tests", args: {}, output: { exitCode: r() < 0.7 ? 1 : 0, output: codeText(r, 2000 + r() * 28000) }, text };
}

/** The events of scripted step `i`: the model call, its one tool call and result; the plan approved after step 7. */
export function stepEvents(step: ReturnType<typeof scriptedStep>, i: number): SessionEvent[] {
  const id = `call_${i}`;
  const hash = "p".repeat(64);
  return [
    {
      type: "llm_called",
      model: "gpt-4o",
      usage: { promptTokens: 3000, completionTokens: 200, estimated: true },
      latencyMs: 0,
      retries: 0,
      costUsd: 0,
      ok: true,
    },
    { type: "assistant_message", content: step.text, toolCalls: [{ id, name: step.tool, arguments: JSON.stringify(step.args) }] },
    { type: "tool_result", callId: id, tool: step.tool, toolVersion: "1", input: step.args, result: { ok: true, data: step.output }, durationMs: 1 },
    ...(i === 7
      ? ([
          { type: "plan_submitted", plan: { summary: "Fix the loop bound in the parser", steps: ["read", "fix", "test"] }, hash },
          { type: "plan_approved", hash, by: { login: "alice", via: "review" } },
        ] as SessionEvent[])
      : []),
  ];
}

/** A summariser that answers like a well-behaved model: valid JSON built from the transcript. */
export class FakeSummariser implements LLMClient {
  readonly model = "fake-summariser";
  async complete(req: LLMRequest): Promise<LLMResponse> {
    const transcript = String(req.messages[1]?.content ?? "");
    const files = [...new Set(transcript.match(/src\/module\d+\.ts/g) ?? [])];
    const tools = transcript.match(/→ call \w+/g) ?? [];
    const summary = {
      goals: ["fix the parser so that the last line is kept", "keep the public API unchanged"],
      facts: files.map((f) => `${f} holds part of the parsing pipeline and was inspected`),
      decisions: tools.slice(-10).map((t, i) => `decision ${i}: ${t.slice(7)} was the right next step`),
      files_touched: files.map((f) => `${f} (read or edited)`),
      open_questions: ["whether the CLI depends on the old behaviour"],
    };
    return {
      content: JSON.stringify(summary),
      toolCalls: [],
      usage: { promptTokens: 0, completionTokens: 0, estimated: true },
      model: this.model,
      latencyMs: 0,
      retries: 0,
    };
  }
}

async function run(withCompaction: boolean): Promise<{ perStep: number[]; compactions: number }> {
  const r = rng(42);
  const prompt = systemPrompt();
  let state: SessionState = fold([
    {
      type: "session_created",
      sessionId: "bench",
      task: { title: "Parser drops the last line", body: codeText(r, 1500), source: { kind: "eval", repo: "acme/widgets" } },
      model: "gpt-4o",
      settings: { maxStepsPerResume: STEPS, limits: {} },
    },
    { type: "workspace_prepared", baseCommit: "b".repeat(40), workdir: "/ws" },
  ]);
  const apply = (e: SessionEvent): void => void (state = reduce(state, e));
  const perStep: number[] = [];
  let compactions = 0;
  const llm = new FakeSummariser();
  for (let i = 0; i < STEPS; i++) {
    if (withCompaction && shouldCompact(state, THRESHOLDS)) {
      const event = await compact(state, llm, { keepRecent: THRESHOLDS.keepRecent });
      if (event.type !== "context_compacted") throw new Error(`bench: compaction failed: ${JSON.stringify(event)}`);
      apply(event);
      compactions += 1;
    }
    perStep.push(estimateMessagesTokens(buildContext(state, { systemPrompt: prompt })));
    for (const e of stepEvents(scriptedStep(r, i), i)) apply(e);
  }
  return { perStep, compactions };
}

export async function benchContext(): Promise<Figures> {
  const without = await run(false);
  const withC = await run(true);
  const max = Math.max(...withC.perStep);
  const med = median(withC.perStep);
  console.error(
    `context: without compaction max ${Math.max(...without.perStep)} tokens, median ${median(without.perStep)}; ` +
      `largest prompt without/with compaction ${(Math.max(...without.perStep) / max).toFixed(1)}×`,
  );
  return {
    context_max_over_median: {
      measured: `max ${max} tokens per prompt`,
      baseline: `median ${med} tokens`,
      ratio: max / med,
      goal: 2,
      note: `${STEPS}-step scripted session, o200k count of buildContext's messages; ${withC.compactions} compactions at ${JSON.stringify(THRESHOLDS)} (trigger: byte estimate)`,
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await benchContext(), null, 2));
}
