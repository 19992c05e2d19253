import { NO_BUDGETS } from "../../../src/config/budgets.js";
import { AppMetrics } from "../../../src/github/metrics/app-metrics.js";
import type { SessionEvent } from "../../../src/session/events.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";
import { created, llmCalled } from "../../helpers/session-events.js";
import { parsePrometheusText, valueOf } from "../../helpers/prometheus-text.js";

/**
 * The operator's budgets at a session's start, through the app on the fake GitHub: an installation at
 * its monthly ceiling gets a comment naming the ceiling and the spend and no session (a repository's
 * config asking for more changes nothing); under it a session starts; a requester past the day's
 * count is refused. `GET /metrics` is scraped over HTTP with the health token and read by a strict
 * parser of Prometheus's text format.
 */
const TOKEN = "metrics-token-0123456789abcdef";
const INSTALLATION = 77;

/** A session of the same installation, another repository: what it spent this month counts against the installation. */
function earlierSession(tokens: number): SessionEvent[] {
  const c = created("earlier");
  return [
    { ...c, task: { ...c.task, source: { kind: "github", repo: "octo-org/other", installationId: INSTALLATION, repoId: 9999, requesterId: 1 } } },
    llmCalled({ promptTokens: tokens - 100, completionTokens: 100 }, null),
    { type: "session_cancelled", by: "maintainer" },
  ];
}

describe("operator budgets at the start of a session", () => {
  let h: Harness;
  const metrics = new AppMetrics();
  const scrape = async (token?: string) => {
    const res = await fetch(h.app.webhookUrl.replace("/api/github/webhooks", "/metrics"), { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };

  beforeAll(async () => {
    h = await storyHarness({ budgets: { ...NO_BUDGETS, installation: { tokens: 1000 }, requesterDailySessions: 1 }, metrics, healthToken: TOKEN });
    // The repository asks for a thousand times more than the operator gives: it may only lower.
    h.github.world.files.set(".github/patchgate.yml", "test: sh test.sh\nlimits:\n  monthly_tokens: 1000000\n  daily_sessions_per_requester: 50\n");
    await h.app.deps.store.append("earlier", earlierSession(1000), { phase: "cancelled" });
  });
  afterAll(() => h.close());

  test("an installation at its ceiling: a comment names the ceiling and the spend, and no session starts", async () => {
    const comments = h.github.world.comments.length;
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    expect(await h.logged((l) => l.startsWith(`session for #${ISSUE.number} refused`))).toBe(
      `session for #${ISSUE.number} refused: the installation budget is reached`,
    );
    await h.settle();
    const posted = h.github.world.comments.slice(comments);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ issue_number: ISSUE.number });
    expect(posted[0].body).toContain(
      "⛔ Patchgate did not start a session: this installation has spent 1000 tokens of its 1000 monthly ceiling on model calls since ",
    );
    expect((await h.app.deps.store.list()).map((s) => s.id)).toEqual(["earlier"]);
    expect(h.github.world.checkRuns).toEqual([]);
    expect(h.app.errors).toEqual([]);
  });

  test("/metrics: 401 without the token; with it, the refusal, the spend by installation and the sessions by phase", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("wrong-token-0123456789abcdefghi")).status).toBe(401);
    const res = await scrape(TOKEN);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parsePrometheusText(res.text);
    expect(valueOf(m, "patchgate_budget_refusals_total", { scope: "installation", at: "start" })).toBe(1);
    expect(valueOf(m, "patchgate_model_calls_total", { installation: String(INSTALLATION) })).toBe(1);
    expect(valueOf(m, "patchgate_model_tokens_total", { installation: String(INSTALLATION) })).toBe(1000);
    expect(valueOf(m, "patchgate_model_unpriced_calls_total", { installation: String(INSTALLATION) })).toBe(1);
    expect(valueOf(m, "patchgate_sessions", { phase: "cancelled" })).toBe(1);
    expect(valueOf(m, "patchgate_queue_jobs", { state: "queued" })).toBe(0);
    expect(valueOf(m, "patchgate_webhook_seconds_count", { event: "issue_comment" })).toBe(1);
    expect(valueOf(m, "patchgate_queue_wait_seconds_count")).toBe(1);
    expect(m.get("patchgate_session_starts_total")?.type).toBe("counter");
    expect(m.get("patchgate_sandbox_runs_total")?.type).toBe("counter");
  });

  test("under the ceiling a session starts; the same requester's second one that day is refused", async () => {
    h.app.deps.budgets = { ...NO_BUDGETS, installation: { tokens: 1_000_000 }, requesterDailySessions: 1 };
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await h.logged((l) => /^session \S+ created for #1 by @maintainer/.test(l));
    await h.settle();
    const comments = h.github.world.comments.length;
    await h.send("issue_comment", h.payloads.comment({ number: 2, title: "Another bug", body: "/agent fix this", by: "maintainer" }));
    expect(await h.logged((l) => l.startsWith("session for #2 refused"))).toBe("session for #2 refused: the requester_day budget is reached");
    await h.settle();
    const posted = h.github.world.comments.slice(comments);
    expect(posted.map((c) => c.issue_number)).toEqual([2]);
    expect(posted[0].body).toContain("@maintainer has started 1 session(s) in this repository today (UTC), and 1 a day is the most one person may start here.");

    const m = parsePrometheusText((await scrape(TOKEN)).text);
    expect(valueOf(m, "patchgate_session_starts_total", { trigger: "comment" })).toBe(1);
    expect(valueOf(m, "patchgate_budget_refusals_total", { scope: "requester_day", at: "start" })).toBe(1);
    const calls = (await h.app.deps.store.list()).length;
    expect(calls).toBe(2);
    expect(h.app.errors).toEqual([]);
  });
});
