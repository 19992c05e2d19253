import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { storyHarness } from "../harness/story-helpers.js";
import { storySteps } from "../harness/story.js";
import { Ledger } from "../../src/store/ledger.js";
import type { ToolResult } from "../../src/session/types.js";

/**
 * A test whose service is on a private address: `reach.js` asks `target` through the egress proxy
 * when the run has one (HTTP_PROXY), and straight away otherwise (where the sandbox's own empty
 * network answers).
 */
const reachJs = (target: string) => `const http = require("node:http");
const target = ${JSON.stringify(target)};
const proxy = process.env.HTTP_PROXY;
const done = (r) => {
  let body = "";
  r.on("data", (d) => (body += d));
  r.on("end", () => {
    console.log("answered", r.statusCode, body.trim());
    process.exit(r.statusCode === 200 ? 0 : 1);
  });
};
const failed = (e) => {
  console.log(proxy ? "proxy error" : "no route to the service:", e.code);
  process.exit(1);
};
if (!proxy) http.get(target, done).on("error", failed);
else {
  const u = new URL(proxy);
  http.get({ host: u.hostname, port: u.port, path: target }, done).on("error", failed);
}
`;

const call = (name: string, args: Record<string, unknown> = {}) => ({ toolCalls: [{ name, arguments: args }] });
const plan = call("submit_plan", { summary: "Check that the service answers.", steps: ["Run the tests"] });
type Data = { stdout: string; stderr: string; passed: boolean; grant_hint?: string };
const results = (l: Ledger, tool: string): ToolResult[] => l.history.flatMap((e) => (e.type === "tool_result" && e.tool === tool ? [e.result] : []));
const data = (r: ToolResult | undefined): Data => (r?.ok ? (r.data as Data) : { stdout: "", stderr: "", passed: false });

/**
 * On the fake GitHub, with a real service on 127.0.0.1 that the operator declared a private
 * destination: the first test run cannot reach it, the agent asks for it, the session parks, a
 * maintainer approves with a comment, the next run reaches the service through the egress proxy (the
 * service counts the request), and the next session on the issue is without the grant (the service
 * sees nothing more).
 */
test("GitHub: a granted run reaches the operator's declared private service; the next session does not", async () => {
  const seen: string[] = [];
  const service: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain" }).end(`private service: request ${seen.length}\n`);
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  const hostPort = `127.0.0.1:${(service.address() as AddressInfo).port}`;
  const config = "test: node reach.js\n";
  const script = [
    call("read_file", { path: "reach.js" }),
    plan,
    call("run_tests"),
    call("request_grant", { kind: "host", target: hostPort, reason: "reach.js asks the team's service" }),
    call("run_tests"),
    call("report_blocked", { reason: "the service answers; nothing to change" }),
    // The next session on the issue.
    call("read_file", { path: "reach.js" }),
    plan,
    call("run_tests"),
    call("report_blocked", { reason: "no network" }),
  ];
  const files = { "reach.js": reachJs(`http://${hostPort}/ping`), ".github/patchgate.yml": config };
  const h = await storyHarness({ script, files, privateDestinations: `build-cache.internal, ${hostPort}` });
  try {
    h.github.world.files.set(".github/patchgate.yml", config);
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const sessions = async () => Promise.all((await h.app.deps.store.list()).map((s) => Ledger.open(h.app.deps.store, s.id)));
    let [l] = await sessions();
    expect(l.state.phase).toBe("awaiting_grant");
    const before = data(results(l, "run_tests")[0]);
    // No network at all: the address is the sandbox's own loopback, where nothing listens.
    expect(before.passed).toBe(false);
    expect(before.stdout).toContain("no route to the service: ECONNREFUSED");
    expect(seen).toEqual([]);

    const pr = h.github.world.pulls[0];
    expect(h.github.world.comments.filter((c) => c.body.includes("grant request")).map((c) => c.body)).toEqual([expect.stringContaining(`\`${hostPort}\``)]);
    await h.send("issue_comment", h.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "reviewer" }));
    await h.settle();
    [l] = await sessions();
    expect(l.state.grants).toEqual([
      expect.objectContaining({ kind: "host", target: hostPort, by: expect.objectContaining({ login: "reviewer", via: "comment" }) }),
    ]);
    const after = data(results(l, "run_tests")[1]);
    expect(after.stdout).toContain("answered 200 private service: request 1");
    expect(after.passed).toBe(true);
    expect(seen).toEqual(["GET /ping"]);

    // The next session on the issue: no grant, so no proxy, and the service hears nothing.
    await storySteps.ask(h);
    const next = (await sessions()).find((x) => x.sessionId !== l.sessionId)!;
    if (next.state.phase === "awaiting_plan_approval") await storySteps.approvePlan(h);
    const again = await Ledger.open(h.app.deps.store, next.sessionId);
    expect(again.state.grants).toEqual([]);
    const third = data(results(again, "run_tests")[0]);
    expect(third.passed).toBe(false);
    expect(third.stdout).toContain("no route to the service: ECONNREFUSED");
    expect(seen).toEqual(["GET /ping"]);
    expect(h.app.errors).toEqual([]);
  } finally {
    await h.close();
    await new Promise((resolve) => service.close(resolve));
  }
}, 300_000);
