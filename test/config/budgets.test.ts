import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ceilingsFor, hasCeilings } from "../../src/config/budgets.js";
import { loadOperatorSettings } from "../../src/config/operator-settings.js";
import { RepoConfigSchema } from "../../src/config/repo-config.js";
import { judgeSpend, NO_SPEND, periodStarts } from "../../src/policy/spend-ceiling.js";

const dir = mkdtempSync(join(tmpdir(), "pg-budgets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function settings(text: string) {
  const file = join(dir, "settings.yml");
  writeFileSync(file, text);
  return () => loadOperatorSettings(file, []);
}

const OPERATOR = `budgets:
  per_installation: { monthly_usd: 100 }
  per_repository: { monthly_usd: 20, monthly_tokens: 1000000 }
  requester_daily_sessions: 5
  installations:
    "77": { monthly_usd: 500 }
  repositories:
    "4242": { monthly_tokens: 50000 }
`;

describe("operator budgets", () => {
  test("read from the operator's settings, by installation and repository id", () => {
    const b = settings(OPERATOR)().budgets;
    expect(ceilingsFor(b, { installationId: 77, repoId: 1 })).toEqual({
      installation: { usd: 500 },
      repository: { usd: 20, tokens: 1_000_000 },
      requesterDailySessions: 5,
    });
    expect(ceilingsFor(b, { installationId: 78, repoId: 4242 })).toEqual({
      installation: { usd: 100 },
      repository: { tokens: 50_000 },
      requesterDailySessions: 5,
    });
  });

  test("no budgets section: no ceiling anywhere", () => {
    const c = ceilingsFor(settings("")().budgets, { installationId: 77, repoId: 1 });
    expect(hasCeilings(c)).toBe(false);
    expect(judgeSpend(c, { installation: { ...NO_SPEND, usd: 1e9, tokens: 1e12 }, repository: NO_SPEND })).toEqual({ over: false });
  });

  test("a repository's limits lower the operator's ceilings and never raise them", () => {
    const b = settings(OPERATOR)().budgets;
    const repo = (limits: Record<string, number>) => RepoConfigSchema.parse({ limits }).limits;
    const tenant = { installationId: 77, repoId: 1 };
    expect(ceilingsFor(b, tenant, repo({ monthly_cost_usd: 5, daily_sessions_per_requester: 2 }))).toEqual({
      installation: { usd: 500 },
      repository: { usd: 5, tokens: 1_000_000 },
      requesterDailySessions: 2,
    });
    // Asking for more than the operator gives changes nothing; the installation's ceiling is not the repository's to touch.
    expect(ceilingsFor(b, tenant, repo({ monthly_cost_usd: 10_000, monthly_tokens: 9e9, daily_sessions_per_requester: 99 }))).toEqual(ceilingsFor(b, tenant));
    // Where the operator set no repository ceiling, the repository may still set one for itself.
    expect(ceilingsFor(settings("")().budgets, tenant, repo({ monthly_cost_usd: 3 })).repository).toEqual({ usd: 3 });
  });

  test("errors name the field: names instead of ids, unknown keys, negative ceilings", () => {
    expect(settings("budgets:\n  repositories:\n    octo-org/calculator: { monthly_usd: 1 }\n")).toThrow("`budgets.repositories.octo-org/calculator`");
    expect(settings("budgets:\n  per_installation: { monthly_dollars: 1 }\n")).toThrow('`budgets.per_installation` Unrecognized key: "monthly_dollars"');
    expect(settings("budgets:\n  per_repository: { monthly_usd: -1 }\n")).toThrow("`budgets.per_repository.monthly_usd`");
  });
});

describe("judging spend", () => {
  const ceilings = { installation: { usd: 10 }, repository: { tokens: 1000 } };
  test("at the ceiling is over; the installation's first; unpriced calls count in tokens only", () => {
    expect(judgeSpend(ceilings, { installation: { ...NO_SPEND, usd: 9.99 }, repository: { ...NO_SPEND, tokens: 999 } })).toEqual({ over: false });
    expect(judgeSpend(ceilings, { installation: { ...NO_SPEND, usd: 10 }, repository: { ...NO_SPEND, tokens: 1000 } })).toEqual({
      over: true,
      scope: "installation",
      unit: "usd",
      ceiling: 10,
      spent: 10,
    });
    expect(judgeSpend(ceilings, { installation: { ...NO_SPEND, unpricedCalls: 3, tokens: 5000 }, repository: { ...NO_SPEND, tokens: 1000 } })).toEqual({
      over: true,
      scope: "repository",
      unit: "tokens",
      ceiling: 1000,
      spent: 1000,
    });
  });

  test("months and days start at midnight UTC", () => {
    expect(periodStarts(new Date("2026-12-06T08:59:59.999Z"))).toEqual({ month: "2026-12-01T00:00:00.000Z", day: "2026-12-06T00:00:00.000Z" });
  });
});
