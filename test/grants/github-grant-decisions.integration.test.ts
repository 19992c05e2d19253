import { storyHarness, theCheckRun } from "../harness/story-helpers.js";
import { storySteps } from "../harness/story.js";
import { Ledger } from "../../src/store/ledger.js";
import { checkBudget } from "../../src/agent/context/budget.js";
import type { ToolResult } from "../../src/session/types.js";
import { GRANT_REPO } from "./grant-repo.js";

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const plan = call("submit_plan", { summary: "Check that the service answers.", steps: ["Run the tests"] });
const results = (l: Ledger, tool: string): ToolResult[] => l.history.flatMap((e) => (e.type === "tool_result" && e.tool === tool ? [e.result] : []));
const only = async (h: Awaited<ReturnType<typeof storyHarness>>) => Ledger.open(h.app.deps.store, (await h.app.deps.store.list())[0].id);

/**
 * Where the config asks for another approver, the requester's approval of a grant is refused; another
 * maintainer's denial goes back to the agent as the call's result; a budget grant approved by a review
 * raises the session's cost limit by what it grants.
 */
test("GitHub: the requester cannot approve a grant under approvals.grants: not_requester; a denial is the call's result; a budget grant raises the limit", async () => {
  const config = "test: node net.js\napprovals:\n  grants: not_requester\nlimits:\n  max_cost_usd: 2\n";
  const script = [
    call("read_file", { path: "net.js" }),
    plan,
    call("request_grant", { kind: "host", target: "grant-target.test", reason: "the test fetches it" }),
    call("request_grant", { kind: "budget", target: "1.5", reason: "the suite is long" }),
    call("report_blocked", { reason: "done asking" }),
  ];
  const h = await storyHarness({ script, files: { ...GRANT_REPO, ".github/patchgate.yml": config } });
  try {
    h.github.world.files.set(".github/patchgate.yml", config);
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    let l = await only(h);
    expect(l.state.phase).toBe("awaiting_grant");
    const pr = h.github.world.pulls[0];
    const say = async (body: string, by: string) => {
      await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body, by }));
      await h.settle();
    };
    // "maintainer" asked for the session.
    expect(h.github.world.comments.filter((c) => c.body.includes("grant request")).at(-1)!.body).toContain("and not @maintainer");
    await say("/agent approve", "maintainer");
    expect(h.github.world.comments.at(-1)!.body).toContain("@maintainer asked for this session, so someone else with write access has to approve this grant");
    l = await only(h);
    expect(l.state.grantRequest?.status).toBe("pending");
    expect(l.state.grants).toEqual([]);

    await say("/agent deny the tests must not reach the network", "reviewer");
    l = await only(h);
    expect(results(l, "request_grant")[0]).toEqual({
      ok: false,
      error: {
        code: "grant_denied",
        message: "@reviewer denied host grant-target.test: the tests must not reach the network. Do the task without it, or report_blocked.",
      },
    });
    expect(l.state.phase).toBe("awaiting_grant");
    expect(l.state.grantRequest?.request).toMatchObject({ kind: "budget", target: "1.5" });
    const limitBefore = l.state.settings.limits.maxCostUsd;
    expect(limitBefore).toBe(2);

    await h.send("pull_request_review", h.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    await h.settle();
    l = await only(h);
    expect(l.state.grants).toEqual([
      expect.objectContaining({ kind: "budget", target: "1.5", by: expect.objectContaining({ login: "reviewer", via: "review" }) }),
    ]);
    expect(results(l, "request_grant")[1]).toMatchObject({ ok: true, data: { granted: { kind: "budget", target: "1.5" } } });
    // The limit the budget check applies: 2 + 1.5 dollars, for this session.
    const spent = { ...l.state, usage: { ...l.state.usage, costUsd: 3.4 } };
    expect(checkBudget(spent)).toEqual({ exceeded: false });
    expect(checkBudget({ ...spent, usage: { ...spent.usage, costUsd: 3.5 } })).toMatchObject({ exceeded: true, message: "cost budget spent: $3.50 of $3.50" });
    expect(l.state.phase).toBe("blocked");
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);

/** A run stopped at its time limit says how to ask; a time grant by the check run's Allow button lets the next run finish. */
test("GitHub: a time grant approved with the check run's Allow button lets the next test run take longer", async () => {
  const config = "test: node slow.js\ntimeouts:\n  test_seconds: 1\n";
  const script = [
    call("read_file", { path: "slow.js" }),
    plan,
    call("run_tests"),
    call("request_grant", { kind: "time", target: "30", reason: "slow.js takes 2.5 s" }),
    call("run_tests"),
    call("report_blocked", { reason: "nothing to change" }),
  ];
  const h = await storyHarness({ script, files: { ...GRANT_REPO, ".github/patchgate.yml": config } });
  try {
    h.github.world.files.set(".github/patchgate.yml", config);
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    let l = await only(h);
    expect(l.state.phase).toBe("awaiting_grant");
    const first = results(l, "run_tests")[0] as { ok: true; data: { timed_out: boolean; grant_hint: string } };
    expect(first.data.timed_out).toBe(true);
    expect(first.data.grant_hint).toContain('request_grant {kind: "time"');
    const run = theCheckRun(h);
    expect(run.actions[0]).toMatchObject({ label: "Allow" });
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier: "grant:00000000000000", by: "maintainer" }));
    await h.settle();
    expect(h.github.world.comments.at(-1)!.body).toMatch(/^That approval is for grant request `000000000000`, but the current one is `[0-9a-f]{12}`/);
    await h.send("check_run", h.payloads.checkRunAction({ checkRunId: run.id, identifier: run.actions[0].identifier, by: "maintainer" }));
    await h.settle();
    l = await only(h);
    expect(l.state.grants).toEqual([expect.objectContaining({ kind: "time", target: "30", by: expect.objectContaining({ via: "check_run" }) })]);
    const second = results(l, "run_tests")[1] as { ok: true; data: { timed_out: boolean; passed: boolean; stdout: string } };
    expect(second.data).toMatchObject({ timed_out: false, passed: true });
    expect(second.data.stdout).toContain("slow but done");
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);
