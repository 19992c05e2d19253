/**
 * Where the runtime-context block goes, measured: for each placement, the share of every prompt that
 * repeats the previous step's prompt from its first token on — what a provider's prompt cache can
 * reuse. OpenAI caches prefixes of 1024 tokens and more, in steps of 128; both the raw shared prefix
 * and that cacheable part are printed. Same scripted session (with compaction) for every placement;
 * prompts rendered ChatML-style and counted with o200k. Run alone: `npx tsx bench/prompt-cache.ts`.
 */
import { pathToFileURL } from "node:url";
import { conversationWindow } from "../src/agent/context/build-context.js";
import { compact, shouldCompact } from "../src/agent/context/compaction.js";
import { DEFAULT_COMPACTION } from "../src/agent/context/compaction-thresholds.js";
import { mergeRoleRuns, resultsAfterCalls, withRuntimeBlock } from "../src/agent/context/message-shape.js";
import { renderRuntimeContext } from "../src/agent/context/runtime-context.js";
import { systemPrompt } from "../src/agent/context/system-prompt.js";
import type { Message } from "../src/session/messages.js";
import type { SessionEvent } from "../src/session/events.js";
import { fold, reduce } from "../src/session/reducer.js";
import type { SessionState } from "../src/session/state.js";
import { estimateTokens } from "../src/agent/llm/tokens.js";
import { codeText, FakeSummariser, rng, scriptedStep, stepEvents } from "./context.js";

const STEPS = 120;

type Placement = (system: Message, conversation: Message[], block: string) => Message[];

/** Each placement gets the same conversation, already shaped (results after calls, user runs merged). */
const PLACEMENTS: [string, Placement][] = [
  ["end of the last user/tool message (chosen)", (sys, conv, block) => [sys, ...withRuntimeBlock(conv, block)]],
  ["its own user message at the end (before)", (sys, conv, block) => [sys, ...conv, { role: "user", content: block }]],
  ["a second system message at the end", (sys, conv, block) => [sys, ...conv, { role: "system", content: block }]],
  ["inside the first user message (the task)", (sys, conv, block) => [sys, ...withRuntimeBlock(conv.slice(0, 1), block), ...conv.slice(1)]],
  ["appended to the system prompt", (sys, conv, block) => [{ role: "system", content: `${sys.content}\n\n${block}` }, ...conv]],
];

function render(messages: Message[]): string {
  return messages
    .map((m) => {
      const calls = m.role === "assistant" ? m.toolCalls.map((c) => `\n<tool_call>${c.name} ${c.arguments}</tool_call>`).join("") : "";
      return `<|im_start|>${m.role}\n${m.content ?? ""}${calls}<|im_end|>\n`;
    })
    .join("");
}

function sharedPrefix(a: string, b: string): string {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return a.slice(0, i);
}

/**
 * The scripted session's states, one per model request. `limits`: a session budget is set (the
 * repository's `limits`), so the block's budget line changes on every step.
 */
async function states(limits: boolean): Promise<SessionState[]> {
  const r = rng(7);
  const budget = limits ? { maxSteps: 200, maxTokens: 2_000_000 } : {};
  let state = fold([
    {
      type: "session_created",
      sessionId: "bench",
      task: { title: "Parser drops the last line", body: codeText(r, 1500), source: { kind: "eval", repo: "acme/widgets" } },
      model: "gpt-4o",
      settings: { maxStepsPerResume: STEPS, limits: budget },
    },
    { type: "workspace_prepared", baseCommit: "b".repeat(40), workdir: "/ws" },
  ]);
  const apply = (e: SessionEvent): void => void (state = reduce(state, e));
  const out: SessionState[] = [];
  for (let i = 0; i < STEPS; i++) {
    if (shouldCompact(state, DEFAULT_COMPACTION)) apply(await compact(state, new FakeSummariser(), { keepRecent: DEFAULT_COMPACTION.keepRecent }));
    out.push(state);
    for (const e of stepEvents(scriptedStep(r, i), i)) apply(e);
  }
  return out;
}

export async function benchPromptCache(): Promise<string[]> {
  const lines = [`prompt prefix shared with the previous step, over a ${STEPS}-step scripted session (o200k, ChatML rendering)`];
  for (const limits of [false, true]) {
    lines.push(
      limits
        ? "with a session budget (the block's budget line changes every step):"
        : "without a session budget (the block changes only with plan, todos, compaction):",
    );
    lines.push(...measure(await states(limits)));
  }
  return lines;
}

function measure(session: SessionState[]): string[] {
  const system: Message = { role: "system", content: systemPrompt() };
  const lines: string[] = [];
  for (const [name, place] of PLACEMENTS) {
    let total = 0;
    let shared = 0;
    let cacheable = 0;
    let previous: string | null = null;
    for (const s of session) {
      const window = conversationWindow(s);
      const conv = mergeRoleRuns(resultsAfterCalls(window.messages));
      const text = render(place(system, conv, renderRuntimeContext(s, { omittedMessages: window.omitted })));
      total += estimateTokens(text);
      if (previous !== null) {
        const n = estimateTokens(sharedPrefix(previous, text));
        shared += n;
        cacheable += n >= 1024 ? Math.floor(n / 128) * 128 : 0;
      }
      previous = text;
    }
    lines.push(`  ${name}: ${((100 * shared) / total).toFixed(1)}% of prompt tokens shared, ${((100 * cacheable) / total).toFixed(1)}% cacheable`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const l of await benchPromptCache()) console.log(l);
}
