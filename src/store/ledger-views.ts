import type { Spend } from "../policy/spend-ceiling.js";

/**
 * Views over the ledger: what the budgets and the metrics count, read from the recorded events.
 *
 * Spend is read from the ledger itself: one row per recorded `llm_called` event, keyed by that event
 * (session, seq), with the tenant and requester its session's first event names. A model call is
 * counted when, and only when, its record is stored: a process killed between the call and its record
 * counts nothing for it, and the call the resume makes instead counts once, whatever the retries.
 * No second copy of the numbers exists that could drift from the ledger or be written twice.
 *
 * `model_spend`: installation_id, repository_id, at, tokens, cost_usd (NULL: the model had no price).
 * `session_starts`: installation_id, repository_id, requester_id, at of every session's creation.
 * `sandbox_runs`: every recorded setup, baseline and test run (kind) and the limit that stopped it, if one did.
 */
export const SQLITE_LEDGER_VIEWS = `
  CREATE INDEX events_by_type ON events (type, at);
  CREATE VIEW model_spend AS
    SELECT c.session_id, c.seq, c.at,
      json_extract(s.body, '$.task.source.installationId') AS installation_id,
      json_extract(s.body, '$.task.source.repoId') AS repository_id,
      json_extract(c.body, '$.usage.promptTokens') + json_extract(c.body, '$.usage.completionTokens') AS tokens,
      json_extract(c.body, '$.costUsd') AS cost_usd
    FROM events c JOIN events s ON s.session_id = c.session_id AND s.seq = 0
    WHERE c.type = 'llm_called';
  CREATE VIEW session_starts AS
    SELECT session_id, at,
      json_extract(body, '$.task.source.installationId') AS installation_id,
      json_extract(body, '$.task.source.repoId') AS repository_id,
      json_extract(body, '$.task.source.requesterId') AS requester_id
    FROM events WHERE type = 'session_created';
  CREATE VIEW sandbox_runs AS
    SELECT session_id, seq, at, type AS kind, json_extract(body, '$.killed.limit') AS limit_fired
    FROM events WHERE type IN ('setup_run', 'baseline_run', 'test_run');
`;

export const PG_LEDGER_VIEWS = `
  CREATE INDEX events_by_type ON events (type, at);
  CREATE VIEW model_spend AS
    SELECT c.session_id, c.seq, c.at,
      (s.body #>> '{task,source,installationId}')::bigint AS installation_id,
      (s.body #>> '{task,source,repoId}')::bigint AS repository_id,
      (c.body #>> '{usage,promptTokens}')::bigint + (c.body #>> '{usage,completionTokens}')::bigint AS tokens,
      (c.body ->> 'costUsd')::double precision AS cost_usd
    FROM events c JOIN events s ON s.session_id = c.session_id AND s.seq = 0
    WHERE c.type = 'llm_called';
  CREATE VIEW session_starts AS
    SELECT session_id, at,
      (body #>> '{task,source,installationId}')::bigint AS installation_id,
      (body #>> '{task,source,repoId}')::bigint AS repository_id,
      (body #>> '{task,source,requesterId}')::bigint AS requester_id
    FROM events WHERE type = 'session_created';
  CREATE VIEW sandbox_runs AS
    SELECT session_id, seq, at, type AS kind, body #>> '{killed,limit}' AS limit_fired
    FROM events WHERE type IN ('setup_run', 'baseline_run', 'test_run');
`;

/** Recorded sandboxed runs of one kind that one limit stopped (`limit` null: none did), all time. */
export interface SandboxRunCount {
  kind: "setup_run" | "baseline_run" | "test_run";
  limit: string | null;
  runs: number;
}

/** The grouping both stores select for SandboxRunCount. */
export const SANDBOX_RUNS_SQL =
  "SELECT kind, limit_fired, COUNT(*) AS runs FROM sandbox_runs GROUP BY kind, limit_fired ORDER BY kind, limit_fired NULLS FIRST";

/** Whose spend: an installation, or one repository of it. */
export interface SpendScope {
  installationId: number;
  repoId?: number;
}

/** Sessions one requester started in one repository. */
export interface StartsScope {
  installationId: number;
  repoId: number;
  requesterId: number;
}

/** One installation's recorded model calls, all time (the metrics' counters). */
export interface InstallationSpend extends Spend {
  installationId: number;
}

/** The aggregate both stores select, and how a row of it becomes a Spend. */
export const SPEND_COLUMNS = "COUNT(*) AS calls, COALESCE(SUM(tokens), 0) AS tokens, COALESCE(SUM(cost_usd), 0) AS usd, COUNT(*) - COUNT(cost_usd) AS unpriced";

export interface SpendRow {
  calls: number | string;
  tokens: number | string;
  usd: number | string;
  unpriced: number | string;
}

/** PostgreSQL answers COUNT and SUM of bigint as text: numbers either way. */
export function spendOf(r: SpendRow | undefined): Spend {
  if (!r) return { usd: 0, tokens: 0, calls: 0, unpricedCalls: 0 };
  return { usd: Number(r.usd), tokens: Number(r.tokens), calls: Number(r.calls), unpricedCalls: Number(r.unpriced) };
}
