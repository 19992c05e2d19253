/**
 * What an LLM call cost, from a price table kept as data. An unknown model has an unknown cost
 * (null): an invented number would make the cost budget and the check run lie.
 */

import { z } from "zod";
import { processOperatorEnv, type OperatorEnv } from "../../config/operator-env.js";
import type { TokenUsage } from "../../session/types.js";
import { FatalError } from "../../errors/index.js";

interface ModelPrice {
  /** USD per 1 000 000 prompt (input) tokens. */
  promptPerMTok: number;
  /** USD per 1 000 000 completion (output) tokens. */
  completionPerMTok: number;
}

export type PriceTable = Record<string, ModelPrice>;

/**
 * OpenAI standard-tier list prices as of 2025-08-07 (the GPT-5 launch), uncached input. They change:
 * override with PATCHGATE_PRICES or a table passed by the caller rather than editing code in a hurry.
 */
export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze({
  "gpt-5": { promptPerMTok: 1.25, completionPerMTok: 10 },
  "gpt-5-mini": { promptPerMTok: 0.25, completionPerMTok: 2 },
  "gpt-5-nano": { promptPerMTok: 0.05, completionPerMTok: 0.4 },
  "gpt-4.1": { promptPerMTok: 2, completionPerMTok: 8 },
  "gpt-4.1-mini": { promptPerMTok: 0.4, completionPerMTok: 1.6 },
  "gpt-4.1-nano": { promptPerMTok: 0.1, completionPerMTok: 0.4 },
  "gpt-4o": { promptPerMTok: 2.5, completionPerMTok: 10 },
  "gpt-4o-mini": { promptPerMTok: 0.15, completionPerMTok: 0.6 },
  o3: { promptPerMTok: 2, completionPerMTok: 8 },
  "o4-mini": { promptPerMTok: 1.1, completionPerMTok: 4.4 },
});

const PriceTableSchema = z.record(z.string().min(1), z.object({ promptPerMTok: z.number().nonnegative(), completionPerMTok: z.number().nonnegative() }));

/** PATCHGATE_PRICES is set but is not a valid price table. A configuration error: fail at startup. */
export class PriceConfigError extends FatalError {
  readonly kind = "invalid_prices";
}

/**
 * The defaults with PATCHGATE_PRICES (JSON: `{"model": {"promptPerMTok": 1, "completionPerMTok": 2}}`)
 * and then `extra` merged over them. Call once at startup and pass the result to `estimateCost`.
 */
export function loadPriceTable(env: OperatorEnv = processOperatorEnv(), extra: PriceTable = {}): PriceTable {
  let fromEnv: PriceTable = {};
  const raw = env.PATCHGATE_PRICES;
  if (raw && raw.trim() !== "") {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      throw new PriceConfigError(`PATCHGATE_PRICES is not valid JSON: ${(e as Error).message}`);
    }
    const parsed = PriceTableSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PriceConfigError(`PATCHGATE_PRICES: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
    fromEnv = parsed.data;
  }
  return { ...DEFAULT_PRICES, ...fromEnv, ...extra };
}

/** Exact name first, then the name without a dated snapshot suffix (`gpt-4o-2024-08-06` → `gpt-4o`). */
function findPrice(model: string, table: PriceTable): ModelPrice | null {
  const exact = table[model];
  if (exact) return exact;
  const base = model.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  return base !== model ? (table[base] ?? null) : null;
}

/**
 * USD cost of one call, or null for a model in neither `table` nor the defaults. Estimated usage
 * (provider gave none) gives an estimated cost; the caller keeps `usage.estimated` beside it.
 */
export function estimateCost(model: string, usage: TokenUsage, table: PriceTable = {}): number | null {
  const price = findPrice(model, { ...DEFAULT_PRICES, ...table });
  if (!price) return null;
  return (usage.promptTokens * price.promptPerMTok + usage.completionTokens * price.completionPerMTok) / 1_000_000;
}
