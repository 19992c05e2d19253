import { ScriptedLLM as RuntimeScriptedLLM } from "../../src/agent/llm/scripted.js";
import type { LLMRequest, LLMResponse } from "../../src/agent/llm/types.js";
import { assertWireContract } from "./chat/in-process.js";

export type { ScriptStep } from "../../src/agent/llm/scripted.js";

/** The runtime's scripted model, with every request held to the wire contract of the fake provider. */
export class ScriptedLLM extends RuntimeScriptedLLM {
  override async complete(req: LLMRequest): Promise<LLMResponse> {
    assertWireContract(req);
    return super.complete(req);
  }
}
