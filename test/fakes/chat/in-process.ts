import type { LLMClient, LLMRequest } from "../../../src/agent/llm/types.js";
import { chatRequestBody } from "../../../src/agent/llm/wire-request.js";
import { PROFILES } from "./providers.js";

/**
 * The fake provider's wire rules for models that answer in-process (scripted and canned models):
 * each request is written exactly as the OpenAI client would send it and checked against the
 * strictest profile. A violation throws (the session fails as it would against a real provider)
 * and is kept, so the after-each hook (./no-violations.ts) fails the test even if the error was
 * swallowed on the way.
 */
const seen: string[] = [];

export function assertWireContract(req: LLMRequest): void {
  const body = chatRequestBody(req, { model: "in-process", stream: false, maxTokensField: "max_tokens", strictTools: false, openReasoning: () => null });
  const refused = PROFILES.strict.check(body, { detailsSent: new Map() });
  if (!refused) return;
  const text = `wire contract violated (${refused.violation.rule}): ${refused.violation.message}`;
  seen.push(text);
  throw new Error(text);
}

/** Violations since the last call, cleared. */
export function takeInProcessViolations(): string[] {
  return seen.splice(0);
}

/** Any in-process model, held to the wire contract (the eval's scripted case model, for one). */
export function wireChecked<T extends LLMClient>(llm: T): T {
  const complete = llm.complete.bind(llm);
  llm.complete = (req) => {
    assertWireContract(req);
    return complete(req);
  };
  return llm;
}
