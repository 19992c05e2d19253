import type { LLMClient, LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";

/** A model whose every call hangs until its request is aborted: a session that keeps running. */
export class HangingModel implements LLMClient {
  readonly model = "hanging";
  aborted = false;
  private signalCalled!: () => void;
  /** Resolves at the first call. */
  readonly called = new Promise<void>((r) => (this.signalCalled = r));

  complete(req: LLMRequest): Promise<LLMResponse> {
    this.signalCalled();
    return new Promise((_resolve, reject) => req.signal?.addEventListener("abort", () => ((this.aborted = true), reject(req.signal?.reason))));
  }
}
