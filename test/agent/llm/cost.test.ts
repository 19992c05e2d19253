import { DEFAULT_PRICES, PriceConfigError, estimateCost, loadPriceTable } from "../../../src/agent/llm/cost.js";

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, estimated: false });

describe("estimateCost", () => {
  it("prices a known model from the default table", () => {
    // gpt-4o: $2.50 per 1M prompt tokens, $10 per 1M completion tokens.
    expect(estimateCost("gpt-4o", usage(1_000_000, 0))).toBe(2.5);
    expect(estimateCost("gpt-4o", usage(200_000, 10_000))).toBeCloseTo(0.5 + 0.1, 10);
  });

  it("prices a dated snapshot as its base model", () => {
    expect(estimateCost("gpt-4o-2024-08-06", usage(1_000_000, 1_000_000))).toBe(12.5);
  });

  it("does not confuse a model with a longer one sharing its prefix", () => {
    expect(estimateCost("gpt-4o-mini", usage(1_000_000, 0))).toBe(0.15);
  });

  it("returns null for an unknown model instead of inventing a price", () => {
    expect(estimateCost("my-local-llama", usage(1000, 1000))).toBeNull();
    expect(estimateCost("gpt-4o-turbo-ultra", usage(1000, 1000))).toBeNull();
  });

  it("uses a passed table over the defaults", () => {
    const table = { "gpt-4o": { promptPerMTok: 1, completionPerMTok: 1 }, "my-local-llama": { promptPerMTok: 0, completionPerMTok: 0 } };
    expect(estimateCost("gpt-4o", usage(1_000_000, 1_000_000), table)).toBe(2);
    expect(estimateCost("my-local-llama", usage(5000, 5000), table)).toBe(0);
    expect(estimateCost("gpt-4.1", usage(1_000_000, 0), table)).toBe(DEFAULT_PRICES["gpt-4.1"].promptPerMTok);
  });
});

describe("loadPriceTable", () => {
  it("merges PATCHGATE_PRICES and then the extra table over the defaults", () => {
    const env = { PATCHGATE_PRICES: '{"acme-1": {"promptPerMTok": 3, "completionPerMTok": 4}, "gpt-4o": {"promptPerMTok": 9, "completionPerMTok": 9}}' };
    const table = loadPriceTable(env, { "gpt-4o": { promptPerMTok: 7, completionPerMTok: 7 } });
    expect(table["acme-1"]).toEqual({ promptPerMTok: 3, completionPerMTok: 4 });
    expect(table["gpt-4o"]).toEqual({ promptPerMTok: 7, completionPerMTok: 7 });
    expect(table["gpt-5"]).toEqual(DEFAULT_PRICES["gpt-5"]);
  });

  it("returns the defaults when the variable is unset", () => {
    expect(loadPriceTable({})).toEqual(DEFAULT_PRICES);
  });

  it("rejects invalid JSON and invalid shapes with a named error", () => {
    expect(() => loadPriceTable({ PATCHGATE_PRICES: "{nope" })).toThrow(PriceConfigError);
    expect(() => loadPriceTable({ PATCHGATE_PRICES: '{"m": {"promptPerMTok": -1, "completionPerMTok": 1}}' })).toThrow(/PATCHGATE_PRICES: m\.promptPerMTok/);
  });
});
