import { storyHarness, theCheckRun } from "../harness/story-helpers.js";
import { storySteps } from "../harness/story.js";
import { Ledger } from "../../src/store/ledger.js";
import type { ToolResult } from "../../src/session/types.js";
import { GRANT_REPO } from "./grant-repo.js";

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const plan = call("submit_plan", { summary: "Check that the service answers.", steps: ["Run the tests"] });
const grantHost = call("request_grant", { kind: "host", target: "grant-target.test", reason: "net.js fetches http://grant-target.test/" });

type Data = { stdout: string; stderr: string; passed: boolean; grant_hint?: string };
const results = (l: Ledger, tool: string): ToolResult[] => l.history.flatMap((e) => (e.type === "tool_result" && e.tool === tool ? [e.result] : []));
const data = (r: ToolResult | undefined): Data => (r?.ok ? (r.data as Data) : { stdout: "", stderr: "", passed: false });

/**
 * On the fake GitHub: a test run needs a host nobody allowed (the repository's own allow_hosts does not
 * reach test runs), the agent asks for it, the session parks, a maintainer approves with a comment, the
 * next run goes through the egress proxy with that host allowed (the proxy then judges its address, as
 * for every host), and the next session on the issue starts without the grant.
 */
test("GitHub: a host grant asked by the agent and approved by a comment reaches the next run of this session only", async () => {
  const script = [
    call("read_file", { path: "net.js" }),
    plan,
    call("run_tests"),
    grantHost,
    call("run_tests"),
    call("report_blocked", { reason: "grant-target.test does not resolve anywhere" }),
    // The next session on the issue.
    call("read_file", { path: "net.js" }),
    plan,
    call("run_tests"),
    call("report_blocked", { reason: "no network" }),
  ];
  const h = await storyHarness({ script, files: GRANT_REPO });
  try {
    h.github.world.files.set(".github/patchgate.yml", GRANT_REPO[".github/patchgate.yml"]);
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const sessions = async () => Promise.all((await h.app.deps.store.list()).map((s) => Ledger.open(h.app.deps.store, s.id)));
    let [l] = await sessions();
    expect(l.state.phase).toBe("awaiting_grant");
    const before = data(results(l, "run_tests")[0]);
    expect(before.passed).toBe(false);
    expect(before.stdout).toContain("no network");
    expect(before.grant_hint).toContain('request_grant {kind: "host"');
    expect(l.state.grantRequest).toMatchObject({ status: "pending", request: { kind: "host", target: "grant-target.test", scope: "session" } });

    const pr = h.github.world.pulls[0];
    const asked = h.github.world.comments.filter((c) => c.body.includes("grant request"));
    expect(asked).toHaveLength(1);
    expect(asked[0].issue_number).toBe(pr.number);
    expect(asked[0].body).toContain("`grant-target.test`");
    expect(asked[0].body).toContain("this session only");
    expect(asked[0].body).toContain("The agent's reason: net.js fetches `http://grant-target.test/`");
    expect(theCheckRun(h).actions).toEqual([expect.objectContaining({ label: "Allow", identifier: `grant:${l.state.grantRequest!.digest.slice(0, 14)}` })]);

    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "reviewer" }));
    await h.settle();
    [l] = await sessions();
    expect(l.state.grants).toEqual([
      expect.objectContaining({ kind: "host", target: "grant-target.test", by: expect.objectContaining({ login: "reviewer", via: "comment" }) }),
    ]);
    const answer = results(l, "request_grant")[0];
    expect(answer).toMatchObject({ ok: true, data: { granted: { kind: "host", target: "grant-target.test" }, until: "the end of this session" } });
    // The run now has the proxy, and the proxy let the granted name past its allow list: what stops it is the name itself, which resolves nowhere.
    const after = data(results(l, "run_tests")[1]);
    expect(after.stdout).toContain("the proxy answered 403 patchgate egress proxy: grant-target.test does not resolve");
    expect(after.stdout).not.toContain("not a package registry");

    // The next session on the issue: no grant, no network.
    await storySteps.ask(h);
    const all = await sessions();
    const next = all.find((x) => x.sessionId !== l.sessionId)!;
    if (next.state.phase === "awaiting_plan_approval") await storySteps.approvePlan(h);
    const again = await Ledger.open(h.app.deps.store, next.sessionId);
    expect(again.state.grants).toEqual([]);
    const third = data(results(again, "run_tests")[0]);
    expect(third.stdout).toContain("no network");
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
  }
}, 300_000);
