import { ScriptedLLM, type ScriptTurn } from "../agent/llm/scripted.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../agent/llm/types.js";
import { messySteps } from "./messy-script.js";
import type { ScriptAnswer } from "./script-schema.js";

function toTurn(a: ScriptAnswer): ScriptTurn {
  if (a.kind === "error") return { error: { status: a.status, message: `scripted provider error ${a.status}` } };
  return { content: a.content, toolCalls: a.calls, ...(a.usage && { usage: a.usage }), ...(a.cutAtLimit && { finishReason: "length" }) };
}

/**
 * The model of a scripted case. Agent turns come from the case's script, in order, through the
 * runtime's ScriptedLLM (running past the end is an `llm_error`, so a short script shows).
 *
 * Compaction's summariser call (a request without tools) is answered here and does not consume a
 * script step: when compaction happens is the runtime's decision, and the script must not have to
 * predict it. The summary is built from the transcript it is given, like a model would.
 */
export class CaseScriptLLM implements LLMClient {
  readonly model: string;
  private readonly agent: ScriptedLLM;
  /** Summariser calls answered (the compaction case checks the runtime really asked). */
  summaries = 0;

  /** `messy`: the same decisions sent the way real models send them (messy-script.ts). */
  constructor(answers: ScriptAnswer[], model = "scripted", opts: { messy?: boolean } = {}) {
    this.model = model;
    this.agent = new ScriptedLLM(opts.messy ? messySteps(answers) : answers.map(toTurn), model);
  }

  async complete(req: LLMRequest): Promise<LLMResponse> {
    if (req.tools.length > 0) return this.agent.complete(req);
    this.summaries += 1;
    const transcript = req.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    return {
      content: JSON.stringify(summarise(transcript)),
      toolCalls: [],
      usage: { promptTokens: Math.ceil(transcript.length / 4), completionTokens: 60, estimated: true },
      model: this.model,
      latencyMs: 0,
      retries: 0,
    };
  }
}

/** Goals from the task title line, touched files from the `→ call tool {"path": …}` lines. */
function summarise(transcript: string) {
  const title = /^Task title: (.*)$/m.exec(transcript)?.[1] ?? "the task";
  const touched = new Set<string>();
  for (const m of transcript.matchAll(/→ call (\w+) (\{.*?\}) \(id /g)) {
    const path = /"path":"([^"]+)"/.exec(m[2])?.[1];
    if (path) touched.add(`${path} (${m[1]})`);
  }
  return { goals: [title], facts: [], decisions: [], files_touched: [...touched], open_questions: [] };
}
