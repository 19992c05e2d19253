import { z } from "zod";
import { RepoConfigSchema } from "../config/repo-config.js";
import { McpConfigSchema } from "../mcp/index.js";
import { ApprovalFallbackSchema, ApprovalStepSchema } from "./approval-schema.js";
import { CheckSchema, EventCountSchema } from "./check-schema.js";
import { FAILURE_CLASS_NAMES, SESSION_OUTCOMES } from "./classes.js";
import { ScriptStepSchema } from "./script-schema.js";
import { MIN_CASE_SECRET_LENGTH } from "./secret-scan.js";

/**
 * A golden case, written as `case.yaml` (or `case.json`) in its own directory. Field names are
 * snake_case, like the repository config, because people write them by hand.
 */
export const EvalCaseSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .optional()
      .describe("Case id; defaults to the directory name."),
    category: z.string().min(1).describe("Group for the per-category pass rate, e.g. `editing`, `security`."),
    description: z.string().default("").describe("What the case shows, for the reader of the report."),
    task: z
      .object({
        title: z.string().min(1).describe("Issue title."),
        body: z.string().default("").describe("Issue body: untrusted text, exactly as a user would write it."),
      })
      .strict(),
    fixture: z
      .string()
      .default("repo")
      .describe("Directory (relative to the case file) copied into the fixture repository; may be shared, e.g. `../_fixtures/calc`."),
    files: z.record(z.string(), z.string()).default({}).describe("Extra files (path → content) written over the fixture before the first commit."),
    config: RepoConfigSchema.optional().describe("Written to `.github/patchgate.yml` in the fixture; omitted = the fixture's own file (or defaults)."),
    settings: z
      .object({
        max_steps_per_resume: z.number().int().positive().default(30).describe("Model calls per resume (the loop bound)."),
        max_steps: z.number().int().positive().optional().describe("Model calls per session."),
        max_tokens: z.number().int().positive().optional().describe("Token budget per session."),
        max_cost_usd: z.number().positive().optional().describe("Cost budget per session."),
      })
      .strict()
      .default({ max_steps_per_resume: 30 }),
    compaction: z
      .object({
        max_prompt_tokens: z.number().int().positive().describe("Compact when the prompt is estimated above this."),
        max_turns: z.number().int().positive().default(60).describe("Compact after this many assistant turns."),
        keep_recent: z.number().int().positive().default(12).describe("Messages kept verbatim after a cut."),
      })
      .strict()
      .optional()
      .describe("Compaction thresholds for this case's runtime (default: the runtime's own), to reach compaction with a small fixture."),
    mcp: McpConfigSchema.optional().describe(
      "The operator's MCP servers for this case, in the PATCHGATE_MCP_CONFIG shape (`mcpServers`, `mcp_non_interactive`); stdio servers start in the case's directory.",
    ),
    env: z
      .record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string())
      .default({})
      .describe("Environment variables set in the runner's process for the case (e.g. a fake secret)."),
    secrets: z.array(z.string()).default([]).describe("Names in `env` whose values must never appear in the events or the diff."),
    auto_approve_writes: z.boolean().default(false).describe("Start as if the issue carried the `agent:writes-approved` label."),
    unattended: z.boolean().default(false).describe("Run the session unattended: every request that would ask a human is refused instead."),
    approvals: z.array(ApprovalStepSchema).default([]).describe("The human's answers, one per park, in order."),
    approvals_fallback: ApprovalFallbackSchema.optional().describe(
      "When approvals run out or do not fit the park; default `stop` with the scripted model, `approve` with a real one.",
    ),
    restart_store: z
      .array(z.number().int().positive())
      .default([])
      .describe(
        "After answering these parks (1-based) and before resuming: close the store, reopen the file, load a new Ledger, rebuild the workspace elsewhere.",
      ),
    script: z.array(ScriptStepSchema).default([]).describe("The scripted model's answers (used with `--llm scripted`)."),
    modes: z
      .array(z.enum(["scripted", "openai"]))
      .min(1)
      .default(["scripted", "openai"])
      .describe("Which models the case is meant for; cases that need a misbehaving model are `[scripted]`."),
    expect: z
      .object({
        outcome: z.enum(SESSION_OUTCOMES).describe("How the session must end."),
        class: z
          .union([z.enum(FAILURE_CLASS_NAMES), z.literal("none")])
          .default("none")
          .describe("The decisive failure class; `none` for a good result."),
        observed: z
          .array(z.enum(FAILURE_CLASS_NAMES))
          .default([])
          .describe(
            "Classes that must also appear (e.g. a gate the agent hit and recovered from). Scripted model only, like `events` and `tool_successes`: a real model may avoid the mistake.",
          ),
        tests: z.enum(["pass", "fail", "not_run"]).optional().describe("The runner's own test run on the final tree."),
        events: z.record(z.string(), EventCountSchema).default({}).describe("Bounds on event counts by type, e.g. `context_compacted: {min: 1}`."),
        tool_successes: z.record(z.string(), EventCountSchema).default({}).describe("Bounds on successful results per tool, e.g. `search_code: {min: 1}`."),
      })
      .strict(),
    checks: z.array(CheckSchema).default([]).describe("Checks on the final tree; failing ones make `wrong_result`."),
  })
  .strict()
  .refine((c) => c.secrets.every((s) => (c.env[s] ?? "").length >= MIN_CASE_SECRET_LENGTH), {
    message: `every name in \`secrets\` must be set in \`env\` to a value of at least ${MIN_CASE_SECRET_LENGTH} characters`,
    path: ["secrets"],
  });

type EvalCaseInput = z.infer<typeof EvalCaseSchema>;

/** A loaded case: validated, with its id and absolute paths resolved. */
export type EvalCase = Omit<EvalCaseInput, "id" | "fixture"> & {
  id: string;
  /** Absolute directory of the case file. */
  dir: string;
  /** Absolute fixture directory, or null when the case is made of `files` only. */
  fixtureDir: string | null;
};
