import { ScriptedLLM, type ScriptStep } from "../../src/agent/llm/scripted.js";
import type { LLMClient, LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";

/**
 * A model that answers `script`, and then never again: every later call hangs and ignores its abort
 * signal, as a stuck connection can. The resume that made the call never returns.
 */
export class StuckAfterScript implements LLMClient {
  readonly model = "stuck";
  private readonly scripted: ScriptedLLM;
  private reached!: () => void;
  /** Resolves at the first call that hangs. */
  readonly stuck = new Promise<void>((r) => (this.reached = r));

  constructor(script: ScriptStep[]) {
    this.scripted = new ScriptedLLM(script);
  }

  complete(req: LLMRequest): Promise<LLMResponse> {
    if (this.scripted.remaining > 0) return this.scripted.complete(req);
    this.reached();
    return new Promise<never>(() => undefined);
  }
}
