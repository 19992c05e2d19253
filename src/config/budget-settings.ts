import { z } from "zod";
import type { OperatorBudgets } from "./budgets.js";

const CeilingSchema = z
  .object({
    monthly_usd: z.number().positive().optional().describe("Cost of the recorded model calls in a UTC month, where the model's price is known."),
    monthly_tokens: z.number().int().positive().optional().describe("Prompt + completion tokens of the recorded model calls in a UTC month."),
  })
  .strict();

const Id = z.string().regex(/^[1-9][0-9]*$/, "a GitHub id (digits), never a name");

/**
 * The `budgets:` section of the operator's settings. Installations and repositories are named by
 * GitHub's ids, which survive a rename or a transfer.
 */
export const BudgetsSchema = z
  .object({
    per_installation: CeilingSchema.default({}).describe("Every installation's monthly ceiling, unless `installations` names it."),
    per_repository: CeilingSchema.default({}).describe("Every repository's monthly ceiling, unless `repositories` names it."),
    requester_daily_sessions: z.number().int().positive().optional().describe("Sessions one person may start in a repository in a UTC day."),
    installations: z.record(Id, CeilingSchema).default({}).describe("Ceilings by installation id."),
    repositories: z.record(Id, CeilingSchema).default({}).describe("Ceilings by repository id."),
  })
  .strict()
  .default({ per_installation: {}, per_repository: {}, installations: {}, repositories: {} });

type Ceiling = z.infer<typeof CeilingSchema>;

export function toBudgets(b: z.infer<typeof BudgetsSchema>): OperatorBudgets {
  const ceiling = (c: Ceiling) => ({
    ...(c.monthly_usd !== undefined && { usd: c.monthly_usd }),
    ...(c.monthly_tokens !== undefined && { tokens: c.monthly_tokens }),
  });
  const byId = (r: Record<string, Ceiling>) => Object.fromEntries(Object.entries(r).map(([id, c]) => [id, ceiling(c)]));
  return {
    installation: ceiling(b.per_installation),
    repository: ceiling(b.per_repository),
    ...(b.requester_daily_sessions !== undefined && { requesterDailySessions: b.requester_daily_sessions }),
    installations: byId(b.installations),
    repositories: byId(b.repositories),
  };
}
