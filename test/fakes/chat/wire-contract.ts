/**
 * What OpenAI's chat-completions endpoint refuses, as a pure check of a request body. Each rule is
 * one a client has broken in practice (see issue 12): the messages quote OpenAI's error text as far
 * as it is known; where the exact words are not, the meaning and the `param` are OpenAI's.
 */

export interface WireViolation {
  rule: string;
  message: string;
  param: string | null;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const TOP_LEVEL = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "reasoning_effort",
  "temperature",
  "top_p",
  "n",
  "stop",
  "seed",
  "user",
  "response_format",
  "frequency_penalty",
  "presence_penalty",
  "logprobs",
  "top_logprobs",
  "metadata",
  "store",
  "service_tier",
  "prediction",
]);

const MESSAGE_KEYS: Record<string, Set<string>> = {
  system: new Set(["role", "content", "name"]),
  developer: new Set(["role", "content", "name"]),
  user: new Set(["role", "content", "name"]),
  assistant: new Set(["role", "content", "name", "tool_calls", "refusal", "audio"]),
  tool: new Set(["role", "content", "tool_call_id"]),
};

export interface ContractOptions {
  /** Providers that read their own fields on messages (reasoning_content…) accept unknown keys. */
  extraMessageKeys?: boolean;
  /** OpenAI refuses unknown top-level arguments; most compatible servers ignore them. */
  extraTopLevelKeys?: boolean;
}

const v = (rule: string, message: string, param: string | null = null): WireViolation => ({ rule, message, param });

function checkSchema(name: string, params: unknown, strict: boolean): WireViolation | null {
  if (!isObj(params) || params.type !== "object") {
    const got = isObj(params) ? JSON.stringify(params.type ?? "None") : "None";
    return v("schema_not_object", `Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: ${got}'.`, "tools");
  }
  return strict ? strictProblem(name, params, []) : null;
}

function strictProblem(name: string, s: Json, path: string[]): WireViolation | null {
  if (isObj(s.properties) || s.type === "object") {
    const keys = Object.keys(isObj(s.properties) ? s.properties : {});
    const required = Array.isArray(s.required) ? s.required : [];
    const missing = keys.filter((k) => !required.includes(k));
    const context = `(${path.map((p) => `'${p}'`).join(", ")})`;
    if (missing.length > 0)
      return v(
        "strict_schema",
        `Invalid schema for function '${name}': In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`,
        "tools",
      );
    if (s.additionalProperties !== false)
      return v(
        "strict_schema",
        `Invalid schema for function '${name}': In context=${context}, 'additionalProperties' is required to be supplied and to be false.`,
        "tools",
      );
    for (const k of keys) {
      const p = strictProblem(name, (s.properties as Json)[k] as Json, [...path, "properties", k]);
      if (p) return p;
    }
  }
  if (isObj(s.items)) return strictProblem(name, s.items, [...path, "items"]);
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[key]))
      for (const [i, sub] of (s[key] as Json[]).entries()) {
        const p = strictProblem(name, sub, [...path, key, String(i)]);
        if (p) return p;
      }
  }
  return null;
}

function checkTools(body: Json): WireViolation | null {
  const tools = body.tools;
  if (tools === undefined) {
    if (body.tool_choice !== undefined)
      return v("tool_choice_without_tools", "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice");
    if (body.parallel_tool_calls !== undefined)
      return v(
        "parallel_without_tools",
        "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
        "parallel_tool_calls",
      );
    return null;
  }
  if (!Array.isArray(tools) || tools.length === 0) return v("tools_empty", "[] is too short - 'tools'", "tools");
  for (const [i, t] of tools.entries()) {
    const fn = isObj(t) ? t.function : undefined;
    if (!isObj(t) || t.type !== "function" || !isObj(fn)) return v("tool_shape", `Missing required parameter: 'tools[${i}].function'.`, `tools[${i}].function`);
    if (typeof fn.name !== "string" || !NAME.test(fn.name))
      return v(
        "invalid_function_name",
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${i}].function.name`,
      );
    if (fn.parameters !== undefined) {
      const p = checkSchema(fn.name, fn.parameters, fn.strict === true);
      if (p) return p;
    }
  }
  return null;
}

function checkMessage(m: unknown, i: number, o: ContractOptions): WireViolation | null {
  if (!isObj(m)) return v("message_shape", `Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`);
  const role = m.role;
  if (typeof role !== "string" || !(role in MESSAGE_KEYS)) {
    return v(
      "invalid_role",
      `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
      `messages[${i}].role`,
    );
  }
  if (!o.extraMessageKeys) {
    const extra = Object.keys(m).find((k) => !MESSAGE_KEYS[role].has(k));
    if (extra) return v("unknown_message_field", `Additional properties are not allowed ('${extra}' was unexpected) - 'messages.${i}'`, `messages[${i}]`);
  }
  const content = m.content;
  const textual = typeof content === "string" || Array.isArray(content);
  if (role !== "assistant" && !textual) {
    return v(
      "content_type",
      `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${content === null ? "null" : typeof content} instead.`,
      `messages[${i}].content`,
    );
  }
  if (role === "tool" && typeof m.tool_call_id !== "string")
    return v("missing_tool_call_id", `Missing required parameter: 'messages[${i}].tool_call_id'.`, `messages[${i}].tool_call_id`);
  if (role !== "assistant") return null;
  if (m.tool_calls === undefined) {
    return textual ? null : v("content_type", `Invalid value for 'messages[${i}].content': expected a string, got null.`, `messages[${i}].content`);
  }
  if (!Array.isArray(m.tool_calls) || m.tool_calls.length === 0)
    return v("tool_calls_empty", `[] is too short - 'messages.${i}.tool_calls'`, `messages[${i}].tool_calls`);
  for (const [j, c] of m.tool_calls.entries()) {
    const at = `messages[${i}].tool_calls[${j}]`;
    const fn = isObj(c) ? c.function : undefined;
    if (!isObj(c) || typeof c.id !== "string" || c.type !== "function" || !isObj(fn))
      return v("tool_call_shape", `Missing required parameter: '${at}.id'.`, `${at}`);
    if (typeof fn.name !== "string" || !NAME.test(fn.name))
      return v(
        "invalid_function_name",
        `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `${at}.function.name`,
      );
    if (typeof fn.arguments !== "string")
      return v(
        "arguments_not_string",
        `Invalid type for '${at}.function.arguments': expected a string, but got ${Array.isArray(fn.arguments) ? "an array" : fn.arguments === null ? "null" : `an ${typeof fn.arguments}`} instead.`,
        `${at}.function.arguments`,
      );
  }
  return null;
}

/** Every call answered right after its message, no answer without a call, ids unique in the request. */
function checkPairing(messages: Json[]): WireViolation | null {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool")
      return v(
        "orphan_tool_message",
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        `messages.[${i}].role`,
      );
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    const ids = (m.tool_calls as Json[]).map((c) => c.id as string);
    for (const id of ids) {
      if (seen.has(id))
        return v(
          "duplicate_tool_call_id",
          `Duplicate value for 'tool_call_id' of ${id} in messages[${i}]. Tool call ids must be unique.`,
          `messages[${i}].tool_calls`,
        );
      seen.add(id);
    }
    const answered = new Set<string>();
    let j = i + 1;
    for (; j < messages.length && messages[j].role === "tool"; j++) {
      const id = messages[j].tool_call_id as string;
      if (!ids.includes(id) || answered.has(id))
        return v(
          "orphan_tool_message",
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${j}].role`,
        );
      answered.add(id);
    }
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return v(
        "unanswered_tool_call",
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
        `messages.[${j < messages.length ? j : i}].role`,
      );
    }
    i = j - 1;
  }
  return null;
}

export function checkOpenAIContract(body: unknown, o: ContractOptions = {}): WireViolation | null {
  if (!isObj(body)) return v("body", "We could not parse the JSON body of your request.");
  if (!o.extraTopLevelKeys) {
    const extra = Object.keys(body).find((k) => !TOP_LEVEL.has(k));
    if (extra) return v("unknown_argument", `Unrecognized request argument supplied: ${extra}`, extra);
  }
  if (typeof body.model !== "string" || body.model === "") return v("model_missing", "you must provide a model parameter", "model");
  if (!Array.isArray(body.messages) || body.messages.length === 0) return v("messages_empty", "[] is too short - 'messages'", "messages");
  for (const [i, m] of body.messages.entries()) {
    const p = checkMessage(m, i, o);
    if (p) return p;
  }
  if (body.stream_options !== undefined && body.stream !== true)
    return v("stream_options_without_stream", "The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
  const effort = body.reasoning_effort;
  if (effort !== undefined && !["none", "minimal", "low", "medium", "high", "xhigh"].includes(effort as string)) {
    return v("reasoning_effort", `Invalid value: '${String(effort)}'. Supported values are: 'minimal', 'low', 'medium', and 'high'.`, "reasoning_effort");
  }
  return checkTools(body) ?? checkPairing(body.messages as Json[]);
}
