import { LLMError, type LLMClient, type LLMRequest, type LLMResponse } from "../../agent/llm/types.js";
import type { RecordedSummary, RecordedTurn } from "./recording.js";

const EMPTY_SUMMARY = { goals: [], facts: [], decisions: [], files_touched: [], open_questions: [] };

/**
 * The model of a replay: each agent call is answered with the recorded answer of the same position,
 * exactly as it was stored (text, tool calls with their ids, usage, finish reason), and a recorded
 * failure fails the same way. A call past the recording's last answer is an `llm_error` the
 * comparison shows as the first divergence; nothing is ever asked of a real model.
 *
 * Compaction's summariser (a request without tools) gets the recorded summaries in order, with what
 * they cost (it counts against the budget), or an empty one: when compaction runs depends on the
 * operator's thresholds, and the summary only shapes the prompt, which a recorded answer does not read.
 */
export class ReplayLLM implements LLMClient {
  private next = 0;
  private summaries = 0;

  constructor(
    private readonly turns: readonly RecordedTurn[],
    private readonly recordedSummaries: readonly RecordedSummary[],
    readonly model: string,
  ) {}

  async complete(req: LLMRequest): Promise<LLMResponse> {
    if (req.signal?.aborted) throw req.signal.reason ?? new Error("aborted");
    if (req.tools.length === 0) return this.summary();
    const turn = this.turns.at(this.next);
    this.next += 1;
    if (turn === undefined) throw new LLMError(`replay: the recording has no model answer for call ${this.next}`, null, false, 0);
    if (turn.kind === "error") throw new LLMError(turn.message, null, false, turn.retries);
    const answer = turn.kind === "answer" ? turn : { content: null, toolCalls: [] };
    return {
      content: answer.content,
      toolCalls: answer.toolCalls.map((c) => ({ ...c })),
      ...("reasoning" in answer && answer.reasoning !== undefined && { reasoning: answer.reasoning }),
      ...("finishReason" in answer && answer.finishReason !== undefined && { finishReason: answer.finishReason }),
      usage: { ...turn.usage },
      model: turn.model,
      latencyMs: 0,
      retries: 0,
    };
  }

  private summary(): LLMResponse {
    const recorded = this.recordedSummaries.at(this.summaries);
    this.summaries += 1;
    return {
      content: JSON.stringify(recorded?.summary ?? EMPTY_SUMMARY),
      toolCalls: [],
      usage: recorded ? { ...recorded.usage } : { promptTokens: 0, completionTokens: 0, estimated: true },
      model: recorded?.model ?? this.model,
      latencyMs: 0,
      retries: 0,
    };
  }
}
