import type { LLMConfig } from "./llm-config.js";
import { unreachableMessage } from "./connection-cause.js";
import { FatalError } from "../../errors/index.js";

/** The endpoint or the model cannot serve a session; the message is one line naming the URL and what to change. */
export class EndpointCheckError extends FatalError {
  readonly kind = "endpoint_unusable";
}

const OPENAI_BASE = "https://api.openai.com/v1";

/**
 * Asks the endpoint, before any work starts, the one question every OpenAI-compatible server answers
 * for free: `GET <base>/models`. An endpoint that cannot be reached, a key it refuses, or a model it
 * does not list is a one-line error now rather than after the clone and setup. A server without the
 * listing (404/405/501), or one failing on its side (5xx), is not judged: the run's own retries decide.
 * Azure lists base models, not the deployment names a request uses, so there only reach and key count.
 */
export async function checkEndpoint(config: LLMConfig, timeoutMs = config.timeoutS * 1000): Promise<void> {
  const base = (config.baseURL ?? OPENAI_BASE).replace(/\/+$/, "");
  const url = `${base}/models${config.provider === "azure" ? `?api-version=${encodeURIComponent(config.azureApiVersion)}` : ""}`;
  const headers: Record<string, string> = config.provider === "azure" ? { "api-key": config.apiKey ?? "" } : { authorization: `Bearer ${config.apiKey ?? ""}` };
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = (err as Error)?.name === "TimeoutError";
    throw new EndpointCheckError(
      timedOut ? `${url} did not answer within ${timeoutMs / 1000} s (OPENAI_BASE_URL)` : `${unreachableMessage(url, err)}; check OPENAI_BASE_URL`,
    );
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new EndpointCheckError(`${url} refused the key (HTTP ${response.status}${providerMessage(text)}); check OPENAI_API_KEY`);
  }
  if (!response.ok || config.provider === "azure") return;
  const ids = listedModels(text);
  if (ids === null || servesModel(ids, config.model)) return;
  const shown = ids.slice(0, 8).join(", ") + (ids.length > 8 ? `, … (${ids.length} in all)` : "");
  throw new EndpointCheckError(`model "${config.model}" is not served by ${base} (it lists: ${shown || "none"}); set --model or PATCHGATE_MODEL`);
}

/** The ids of `{data: [{id}]}`; null when the body is not such a list (then nothing is judged). */
function listedModels(text: string): string[] | null {
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if (!Array.isArray(data)) return null;
    return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string");
  } catch {
    return null;
  }
}

// Ollama lists `llama3:latest` and serves it as `llama3` too.
const servesModel = (ids: string[], model: string) => ids.includes(model) || ids.includes(`${model}:latest`);

function providerMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === "string" && message !== "" ? `: ${message.split("\n")[0].slice(0, 200)}` : "";
  } catch {
    return "";
  }
}
