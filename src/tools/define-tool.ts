import { z } from "zod";
import type { ActionRequest } from "../policy/types.js";
import type { ToolError } from "../session/types.js";
import { capOutput, TOOL_OUTPUT_BYTES } from "./output-cap.js";
import { ok, type ToolContext, type ToolDefinition, type ToolEffect, type ToolOutcome } from "./tool.js";

/**
 * The one way to declare a tool. The name is given once (the policy's request carries it without the
 * tool repeating it), what the tool does to the world is one `effect`, the modes it is offered in are
 * stated, and the text fields of its result are cut to one bound here rather than in each tool.
 */

/** What the policy judges, less the tool's name, which the declaration adds. */
export type ToolRequest = ActionRequest extends infer R ? (R extends unknown ? Omit<R, "tool"> : never) : never;

/** Text fields of a successful result's data that are cut to a bound, head and tail kept. */
interface ToolOutput {
  fields: readonly string[];
  /** Default TOOL_OUTPUT_BYTES. */
  maxBytes?: number;
  /** Where the whole text stays when it is cut, for the marker; absent when it is not kept. */
  keptIn?: string;
}

export interface ToolDeclaration<S extends z.ZodType> extends Omit<ToolDefinition<S>, keyof ToolEffect | "request" | "execute"> {
  effect: ToolEffect;
  output?: ToolOutput;
  request(input: z.infer<S>, ctx: ToolContext): ToolRequest;
  execute(input: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodType>(declaration: ToolDeclaration<S>): ToolDefinition<S> {
  const { effect, output, request, execute, ...rest } = declaration;
  return {
    ...rest,
    ...effect,
    request(input, ctx) {
      const { kind, ...fields } = request(input, ctx);
      // `kind` first and the name beside it, as every request has always been written.
      return { kind, tool: declaration.name, ...fields } as ActionRequest;
    },
    async execute(input, ctx) {
      const outcome = await execute(input, ctx);
      return output === undefined ? outcome : capped(outcome, output);
    },
  };
}

/** The outcome with each named field cut; a result that lost text says so (`truncated`, and its own field if it has one). */
function capped(outcome: ToolOutcome, output: ToolOutput): ToolOutcome {
  const { result } = outcome;
  if (!result.ok || result.data === null || typeof result.data !== "object") return outcome;
  const data: Record<string, unknown> = { ...(result.data as Record<string, unknown>) };
  let cut = false;
  for (const field of output.fields) {
    const text = data[field];
    if (typeof text !== "string") continue;
    const c = capOutput(text, output.maxBytes ?? TOOL_OUTPUT_BYTES, output.keptIn);
    data[field] = c.text;
    cut ||= c.truncated;
  }
  if (!cut) return outcome;
  if (typeof data.truncated === "boolean") data.truncated = true;
  return { ...outcome, result: ok(data, true) };
}

/**
 * No tool argument is nullable, so a null means "not given". Strict function calling (PATCHGATE_LLM_STRICT_TOOLS)
 * makes every property required and the optional ones nullable: the model then sends null for them.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

export type ParsedArguments<S extends z.ZodType> = { ok: true; input: z.infer<S> } | { ok: false; error: ToolError };

/**
 * The model's raw argument text → validated input, or an error the model can act on, for every tool
 * (an MCP tool's schema is wrapped as a zod schema). A schema error is a tool result, not a failure of
 * the session: the model gets the issues and rewrites its call.
 */
export function parseToolArguments<S extends z.ZodType>(tool: ToolDefinition<S>, rawJson: string): ParsedArguments<S> {
  let raw: unknown;
  try {
    // Some providers send "" for a call without arguments.
    raw = rawJson.trim() === "" ? {} : JSON.parse(rawJson);
  } catch (err) {
    return { ok: false, error: { code: "invalid_arguments", message: `arguments are not valid JSON: ${(err as Error).message}. Send a JSON object.` } };
  }
  const parsed = tool.input.safeParse(withoutNulls(raw));
  if (parsed.success) return { ok: true, input: parsed.data };
  const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  const listed = issues.map((i) => `${i.path === "" ? "(arguments)" : i.path}: ${i.message}`).join("; ");
  return {
    ok: false,
    error: {
      code: "invalid_arguments",
      message: `invalid arguments for ${tool.name}: ${listed}. Rewrite the input so it satisfies the schema.`,
      details: { issues },
    },
  };
}
