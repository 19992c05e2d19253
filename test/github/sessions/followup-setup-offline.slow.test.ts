import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Harness } from "../../harness/harness.js";
import { STORY_FILES, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * Issue 9, bypass 4: session 1 rewrites setup.sh; `/agent add docs` on the PR starts a session on the
 * PR branch, whose setup must not run that file with network. The host runs a real HTTP server on
 * 127.0.0.1; the setup scripts (the maintainer's and the agent's) each try to reach it, directly and
 * through the egress proxy a networked setup has (issue 11): neither ever does.
 */
const probe = (port: number, who: string) =>
  `node -e "fetch('http://127.0.0.1:${port}/${who}').then(() => {}, () => {}); require('http').get({ host: '127.0.0.1', port: 3128, path: 'http://127.0.0.1:${port}/${who}' }, () => {}).on('error', () => {})"\n`;

describe("a follow-up session whose setup inputs differ from the default branch's", () => {
  let h: Harness;
  let server: Server;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const config = "test: sh test.sh\nsetup: sh setup.sh\nsandbox:\n  backend: bubblewrap\n  network_for_setup: true\n";
    const files = { ...STORY_FILES, ".github/patchgate.yml": config, "setup.sh": probe(port, "maintainer") };
    const session1 = [
      {
        toolCalls: [
          { name: "read_file", arguments: { path: "src/add.js" } },
          { name: "read_file", arguments: { path: "setup.sh" } },
        ],
      },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "Fix add().", steps: ["Fix the operator"] } }] },
      {
        toolCalls: [
          { name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } },
          { name: "write_file", arguments: { path: "setup.sh", content: probe(port, "agent") } },
        ],
      },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add() adds." } }] },
    ];
    const followUp = [
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "Add docs.", steps: ["Write docs/add.md"] } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "docs/add.md", content: "add(a, b) adds.\n" } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "Documented add()." } }] },
    ];
    h = await storyHarness({ script: [...session1, ...followUp], files });
    h.github.world.files.set(".github/patchgate.yml", config);
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  test("session 1 sets up online on the maintainer's tree; the follow-up sets up offline; neither reaches the host", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const pr = h.github.world.pulls[0].number;
    for (const body of ["/agent add docs", "/agent approve", "/agent approve"]) {
      await h.send("issue_comment", h.payloads.comment({ number: pr, pr: true, body, by: "maintainer" }));
      await h.settle();
    }

    // The real boundary: no setup reached the host's server, not even the maintainer's networked one
    // (its egress proxy refuses loopback).
    expect(hits).toEqual([]);
    const sessions = await h.app.deps.store.list();
    expect(sessions.map((s) => s.phase)).toEqual(["done", "done"]);
    const [second, first] = await Promise.all(sessions.map((s) => Ledger.open(h.app.deps.store, s.id)));
    const setups = (l: Ledger) => l.history.flatMap((e) => (e.type === "setup_run" ? [{ network: e.network, withheld: e.withheld }] : []));
    // Session 1 rewrote setup.sh (a setup input): its run_tests set up again, offline.
    expect(setups(first)).toEqual([
      { network: true, withheld: undefined },
      { network: false, withheld: { reason: "workspace_changed" } },
    ]);
    expect(setups(second)).toEqual([{ network: false, withheld: { reason: "setup_inputs_changed", paths: ["setup.sh"] } }]);
    const summary = h.github.world.checkRuns.at(-1)!.output.text ?? "";
    expect(summary).toContain("without network: its inputs differ from the default branch's (setup.sh)");
    expect(h.app.errors).toEqual([]);
    // Two whole sessions with a sandboxed setup and test run each: about 15 s on a quiet machine, past 60 s at load 13.
  }, 240_000);
});
