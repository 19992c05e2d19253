import { z } from "zod";

const FileText = z
  .object({
    path: z.string().min(1).describe("Path relative to the repository root."),
    text: z.string().min(1).describe("Literal text to look for."),
  })
  .strict();

/**
 * A check on the result the agent left behind, evaluated by the runner on the final tree after the
 * session stops. If the tests pass but a check fails, the class is `wrong_result`.
 * Each check is an object with exactly one key.
 */
export const CheckSchema = z.union([
  z.object({ file_contains: FileText.describe("The file exists and contains the text.") }).strict(),
  z.object({ file_not_contains: FileText.describe("The file is absent or does not contain the text.") }).strict(),
  z
    .object({
      file_matches: z
        .object({ path: z.string().min(1), regex: z.string().min(1).describe("JavaScript regular expression (multiline).") })
        .strict()
        .describe("The file exists and matches the regular expression."),
    })
    .strict(),
  z.object({ file_exists: z.string().min(1).describe("The path exists.") }).strict(),
  z.object({ file_absent: z.string().min(1).describe("The path does not exist.") }).strict(),
  z.object({ file_unchanged: z.string().min(1).describe("The file is byte-identical to the fixture's version.") }).strict(),
  z
    .object({
      only_changed: z.array(z.string().min(1)).min(1).describe("picomatch globs; every path changed against the base commit must match one of them."),
    })
    .strict(),
  z.object({ no_changes: z.literal(true).describe("The final tree is identical to the fixture.") }).strict(),
  z.object({ summary_contains: z.string().min(1).describe("The accepted finish summary contains the text.") }).strict(),
]);

export type Check = z.infer<typeof CheckSchema>;

/** Bounds on how often an event type appears in the session (e.g. `context_compacted: {min: 1}`). */
export const EventCountSchema = z
  .object({
    min: z.number().int().nonnegative().optional().describe("At least this many events of the type."),
    max: z.number().int().nonnegative().optional().describe("At most this many."),
  })
  .strict();

/** A short human label for a check, used in reports. */
export function checkLabel(check: Check): string {
  const [key, value] = Object.entries(check)[0] as [string, unknown];
  if (value === true) return key;
  if (typeof value === "string") return `${key} ${value}`;
  if (Array.isArray(value)) return `${key} ${value.join(",")}`;
  const v = value as { path: string; text?: string; regex?: string };
  return `${key} ${v.path} ${JSON.stringify(v.text ?? v.regex)}`;
}
