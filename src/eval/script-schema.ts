import { z } from "zod";

/**
 * The scripted model of a case: what it answers, one entry per model call, in order.
 * Scripts do not branch: the fixture repository is fixed, so every tool result is known in advance,
 * and the runtime — not the script — is what a case tests.
 */
const ToolCallSchema = z
  .object({
    tool: z.string().min(1).describe("Tool name, e.g. `read_file`. Unknown names are allowed: the runtime must refuse them."),
    args: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .default({})
      .describe("Arguments object; a string is sent verbatim as the raw JSON text (to test malformed arguments)."),
  })
  .strict();

export const ScriptStepSchema = z
  .object({
    say: z.string().optional().describe("Assistant text sent with (or instead of) the tool calls."),
    tool: z.string().min(1).optional().describe("Shorthand for a single tool call: its name."),
    args: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .optional()
      .describe("Shorthand for a single tool call: its arguments."),
    calls: z.array(ToolCallSchema).min(1).optional().describe("Several tool calls in one answer (parallel calls)."),
    error: z
      .number()
      .int()
      .min(400)
      .max(599)
      .optional()
      .describe("Instead of answering, the provider fails with this HTTP status (401 is fatal, 5xx are retried)."),
    usage: z
      .object({
        prompt_tokens: z.number().int().nonnegative().describe("Reported prompt tokens."),
        completion_tokens: z.number().int().nonnegative().describe("Reported completion tokens."),
      })
      .strict()
      .optional()
      .describe("Token usage to report for this answer; omitted = estimated by the scripted model."),
    cut_at_limit: z
      .boolean()
      .optional()
      .describe("The answer was cut at the output token limit (finish_reason `length`): its last call's arguments may be cut mid-JSON."),
    repeat: z.number().int().positive().max(1000).default(1).describe("Send this same answer this many times in a row."),
  })
  .strict()
  .refine((s) => !(s.tool && s.calls), { message: "use either `tool`/`args` or `calls`, not both" })
  .refine((s) => s.args === undefined || s.tool !== undefined, { message: "`args` needs `tool`" })
  .refine((s) => s.error === undefined || (s.tool === undefined && s.calls === undefined && s.say === undefined && s.cut_at_limit === undefined), {
    message: "an `error` step answers nothing else",
  });

export type ScriptStepInput = z.infer<typeof ScriptStepSchema>;

/** One scripted answer, expanded (no `repeat`, shorthand resolved). */
export type ScriptAnswer =
  | { kind: "error"; status: number }
  | {
      kind: "answer";
      content: string | null;
      calls: { name: string; arguments: object | string }[];
      usage?: { promptTokens: number; completionTokens: number };
      cutAtLimit?: boolean;
    };

/** Resolves shorthand and repeats into the flat list of answers the scripted model plays back. */
export function expandScript(steps: ScriptStepInput[]): ScriptAnswer[] {
  return steps.flatMap((s) => {
    let answer: ScriptAnswer;
    if (s.error !== undefined) answer = { kind: "error", status: s.error };
    else {
      const calls = s.calls ?? (s.tool ? [{ tool: s.tool, args: s.args ?? {} }] : []);
      answer = {
        kind: "answer",
        content: s.say ?? null,
        calls: calls.map((c) => ({ name: c.tool, arguments: c.args })),
        ...(s.usage && { usage: { promptTokens: s.usage.prompt_tokens, completionTokens: s.usage.completion_tokens } }),
        ...(s.cut_at_limit && { cutAtLimit: true }),
      };
    }
    return Array.from({ length: s.repeat }, () => answer);
  });
}
