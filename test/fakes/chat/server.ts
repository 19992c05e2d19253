import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LLMRequest } from "../../../src/agent/llm/types.js";
import { readBody, sendJson } from "../github/http-util.js";
import { shapeAnswer, streamChunks } from "./answer.js";
import { answerModelList, DEFAULT_LISTED_MODELS } from "./model-list.js";
import { PROFILES, type ProfileState, type ProviderName } from "./providers.js";
import { fromWire, isAnswer, type FakeStep, type FakeTurn } from "./turns.js";

/** A recorded request: enough to assert what the client sent (auth, path, model, messages, tools). */
interface RecordedChatRequest {
  authorization: string | undefined;
  apiKey: string | undefined;
  url: string;
  body: { model: string; messages: unknown[]; tools?: { function: { name: string } }[]; stream?: boolean } & Record<string, unknown>;
}

/** A request the provider would have refused (or, for a silent provider, mishandled). */
interface RecordedViolation {
  request: number;
  rule: string;
  message: string;
}

export interface FakeOpenAIOptions {
  /** The model name answers carry; default: the one the request named. */
  model?: string;
  /** Which provider to behave like; default `strict` (refuses what any of them refuses). */
  provider?: ProviderName;
  /** Ollama's context window: a longer prompt is recorded as a violation (Ollama would silently cut it). */
  contextTokens?: number;
  /**
   * Answers requests without tools (compaction's summariser) without using a script turn: when the
   * runtime compacts is its own decision, and a script must not have to predict it.
   */
  summarise?: (req: LLMRequest) => FakeTurn;
  /** What `GET …/models` lists (default DEFAULT_LISTED_MODELS plus `model`); those requests are not in `requests`. */
  models?: string[];
  /** The key the server accepts; any other is answered 401 on every path (default: any key). */
  apiKey?: string;
}

export interface FakeOpenAIServer {
  /** Base URL for the client: `…/v1`, or the Azure resource's `…/openai`. */
  baseURL: string;
  requests: RecordedChatRequest[];
  violations: RecordedViolation[];
  /** Turns not yet served. */
  remaining(): number;
  /** Resolves once `n` (default 1) `hold` turns were reached: those requests hang until the client gives up. */
  held(n?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, answering from a script,
 * and refusing — with the provider's status and error shape — every request that breaks the wire
 * contract. Refusals are also kept in `violations`, so a test can assert none happened even when
 * the client under test swallowed the error.
 */
export async function startFakeOpenAI(steps: FakeStep[], options: string | FakeOpenAIOptions = {}): Promise<FakeOpenAIServer> {
  const o = typeof options === "string" ? { model: options } : options;
  const profile = PROFILES[o.provider ?? "strict"];
  const requests: RecordedChatRequest[] = [];
  const violations: RecordedViolation[] = [];
  const state: ProfileState = { detailsSent: new Map() };
  const listed = o.models ?? [...new Set([...DEFAULT_LISTED_MODELS, ...(o.model ? [o.model] : [])])];
  let next = 0;
  let calls = 0;
  let holds = 0;
  const holdWaiters: { n: number; resolve: () => void }[] = [];
  const onHold = () => {
    holds += 1;
    for (const w of holdWaiters.filter((x) => x.n <= holds)) w.resolve();
  };

  const refuse = (res: ServerResponse, status: number, rule: string, message: string, param: string | null = null) => {
    violations.push({ request: requests.length, rule, message });
    sendJson(res, status, profile.errorBody(message, status, param));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req)).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    if (o.apiKey !== undefined && !keyMatches(req, o.apiKey))
      return sendJson(res, 401, profile.errorBody("Incorrect API key provided.", 401, null, "invalid_api_key"));
    if (answerModelList(req, res, url, profile, listed)) return;
    if (req.method !== "POST") return sendJson(res, 404, profile.errorBody("not found", 404, null));
    const route = profile.route(url, req.headers);
    let body: RecordedChatRequest["body"];
    try {
      body = JSON.parse(raw) as RecordedChatRequest["body"];
    } catch {
      return refuse(res, 400, "body", "We could not parse the JSON body of your request.");
    }
    requests.push({ authorization: req.headers.authorization, apiKey: req.headers["api-key"] as string | undefined, url: url.pathname + url.search, body });
    if (route) return refuse(res, route.status, "route", route.message);
    const refused = profile.check(body, state);
    if (refused) return refuse(res, refused.status, refused.violation.rule, refused.violation.message, refused.violation.param);
    if (o.contextTokens !== undefined) {
      const tokens = Math.ceil(JSON.stringify(body.messages).length / 4);
      if (tokens > o.contextTokens)
        violations.push({
          request: requests.length,
          rule: "context_overflow",
          message: `a prompt of about ${tokens} tokens does not fit the ${o.contextTokens}-token context window; the start would be cut silently`,
        });
    }
    const request: LLMRequest = { messages: fromWire(body.messages), tools: [] };
    if (o.summarise && (body.tools ?? []).length === 0) return answer(res, o.summarise(request), body);
    const step = steps[next++];
    if (step === undefined) return sendJson(res, 500, profile.errorBody("scripted LLM ran out of turns", 500, null));
    await answer(res, typeof step === "function" ? step(request) : step, body);
  }

  async function answer(res: ServerResponse, turn: FakeTurn, body: RecordedChatRequest["body"]): Promise<void> {
    const stream = body.stream === true;
    if ("hold" in turn) {
      onHold();
      return; // never answered; the connection stays open until the client or close() ends it
    }
    if ("error" in turn) {
      const status = turn.error.status ?? 500;
      return sendJson(
        res,
        status,
        profile.errorBody(turn.error.message ?? `scripted error ${status}`, status, null, turn.error.code ?? null),
        status === 429 ? { "retry-after": "0" } : {},
      );
    }
    if ("errorBody" in turn) {
      const error = { message: turn.errorBody.message, code: turn.errorBody.code ?? 502 };
      if (!stream) return sendJson(res, 200, { error });
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify({ error })}\n\n`);
      return;
    }
    if (!isAnswer(turn)) return;
    const shaped = shapeAnswer(turn, profile, () => ++calls);
    if (shaped.details) state.detailsSent.set(shaped.details.firstCallId, shaped.details.json);
    const id = `chatcmpl-${requests.length}`;
    // Without a configured name the server answers as the model it was asked for, like a real one.
    const model = o.model ?? body.model;
    if (!stream || turn.ignoreStream) {
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created: 0,
        model,
        choices: [{ index: 0, message: shaped.message, finish_reason: shaped.finishReason }],
        usage: shaped.usage,
      });
    }
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const chunks = streamChunks(shaped, profile, model, id, includeUsage);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (profile.stream.keepAliveComments) res.write(": OPENROUTER PROCESSING\n\n");
    for (const [i, c] of chunks.entries()) {
      if (i === turn.stallAfterChunks) return; // stalled: the client's idle timeout has to notice
      if (i === turn.cutAfterChunks) {
        res.socket?.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    }
    res.end("data: [DONE]\n\n");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => sendJson(res, 500, { error: { message: (e as Error).message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/${profile.name === "azure" ? "openai" : "v1"}`,
    requests,
    violations,
    remaining: () => steps.length - next,
    held: (n = 1) => (holds >= n ? Promise.resolve() : new Promise<void>((resolve) => holdWaiters.push({ n, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const keyMatches = (req: IncomingMessage, key: string) => req.headers.authorization === `Bearer ${key}` || req.headers["api-key"] === key;
