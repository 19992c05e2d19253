import { MemorySummarySchema, SUMMARY_FIELDS, emptySummary, mergeSummaries, type MemorySummary } from "../../../src/agent/context/memory-summary.js";

const summary = (over: Partial<MemorySummary>): MemorySummary => ({ ...emptySummary(), ...over });

describe("MemorySummarySchema", () => {
  it("accepts the five string lists, trimming and dropping empty items", () => {
    const parsed = MemorySummarySchema.parse({ goals: ["  fix  the parser "], facts: ["", "uses jest"], decisions: [], files_touched: [], open_questions: [] });
    expect(parsed).toEqual(summary({ goals: ["fix the parser"], facts: ["uses jest"] }));
  });

  it("rejects a missing field or a wrong type", () => {
    expect(MemorySummarySchema.safeParse({ goals: [], facts: [], decisions: [], files_touched: [] }).success).toBe(false);
    expect(MemorySummarySchema.safeParse({ ...emptySummary(), facts: "one fact" }).success).toBe(false);
    expect(MemorySummarySchema.safeParse({ ...emptySummary(), facts: [1, 2] }).success).toBe(false);
  });

  it("caps long items and long lists", () => {
    const parsed = MemorySummarySchema.parse({ ...emptySummary(), facts: Array.from({ length: 60 }, (_, i) => `f${i}`), goals: ["g".repeat(1000)] });
    expect(parsed.facts).toEqual(Array.from({ length: 40 }, (_, i) => `f${i + 20}`));
    expect(parsed.goals[0]).toBe(`${"g".repeat(399)}…`);
  });
});

describe("mergeSummaries", () => {
  it("keeps previous items first, appends new ones in order, drops duplicates ignoring case and spacing", () => {
    const prev = summary({ facts: ["tests use jest", "parser is in src/parser.ts"], decisions: ["keep the API"] });
    const next = summary({ facts: ["Tests  use Jest", "the bug is an off-by-one"], decisions: ["keep the API", "add a regression test"] });
    expect(mergeSummaries(prev, next)).toEqual(
      summary({
        facts: ["tests use jest", "parser is in src/parser.ts", "the bug is an off-by-one"],
        decisions: ["keep the API", "add a regression test"],
      }),
    );
  });

  it("caps each field: first goals kept, newest of the others kept", () => {
    const prev = summary({ goals: Array.from({ length: 8 }, (_, i) => `g${i}`), facts: Array.from({ length: 35 }, (_, i) => `f${i}`) });
    const next = summary({ goals: Array.from({ length: 8 }, (_, i) => `g${i + 8}`), facts: Array.from({ length: 10 }, (_, i) => `f${i + 35}`) });
    const merged = mergeSummaries(prev, next);
    expect(merged.goals).toEqual(Array.from({ length: SUMMARY_FIELDS.goals.cap }, (_, i) => `g${i}`));
    expect(merged.facts).toEqual(Array.from({ length: SUMMARY_FIELDS.facts.cap }, (_, i) => `f${i + 5}`));
  });

  it("is deterministic and idempotent", () => {
    const a = summary({ facts: ["x", "y"], files_touched: ["a.ts"] });
    expect(mergeSummaries(a, a)).toEqual(a);
    expect(mergeSummaries(null, a)).toEqual(a);
    expect(mergeSummaries(a, summary({ facts: ["z"] }))).toEqual(mergeSummaries(a, summary({ facts: ["z"] })));
  });
});
