import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenAIClient } from "../../../src/agent/llm/openai-client.js";
import { NO_BUDGETS } from "../../../src/config/budgets.js";
import { Ledger } from "../../../src/store/ledger.js";
import { HARNESS_API_KEY, type Harness } from "../../harness/harness.js";
import { ISSUE, storySteps } from "../../harness/story.js";
import { storyHarness, theCheckRun } from "../../harness/story-helpers.js";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { cli } from "../../helpers/run-cli.js";
import { receiptSettings } from "../../../src/github/receipt-settings.js";
import { publicKeysDocument } from "../../../src/receipt/signing-key.js";
import type { ReceiptStatement } from "../../../src/receipt/statement.js";

/**
 * A running session that crosses the installation's monthly ceiling parks before its next model call,
 * with a comment; `/agent budget` shows the spend; `/agent budget +<usd>` by a write-access human is
 * recorded with who raised it, and the session goes on to publish; its verified receipt names the raise. The model is priced (gpt-4.1-mini's
 * built-in price): each of the fake model's answers (100 + 20 tokens) costs $0.000072.
 */
describe("a session that crosses the operator's ceiling mid-run", () => {
  let h: Harness;
  let root: string;
  beforeAll(async () => {
    root = tempDir("pg-budget-receipt-");
    const receipts = { ...receiptSettings(join(root, "data"), {}), dir: join(root, "receipt-clones") };
    h = await storyHarness({
      receipts,
      budgets: { ...NO_BUDGETS, installation: { usd: 0.0002 } },
      llm: () => createOpenAIClient({ apiKey: HARNESS_API_KEY, baseURL: h.openai.baseURL, model: "gpt-4.1-mini" }),
    });
  });
  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("parks at the ceiling, shows the spend, and goes on once raised", async () => {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    const parkedComment = h.github.world.comments.length;
    await storySteps.approveWrites(h);
    const [summary] = await h.app.deps.store.list();
    let ledger = await Ledger.open(h.app.deps.store, summary.id);
    expect(ledger.state.phase).toBe("awaiting_budget");
    expect(ledger.state.budget.parked).toEqual({
      scope: "installation",
      unit: "usd",
      ceiling: 0.0002,
      spent: expect.closeTo(0.000216, 9),
      resumeIn: "executing",
    });
    const parked = h.github.world.comments.slice(parkedComment).filter((c) => c.issue_number === ISSUE.number);
    expect(parked.map((c) => c.body.split("\n")[0])).toContainEqual(
      "⏸ Patchgate paused this session: the installation's monthly ceiling of $0.0002 is reached: $0.0002 spent this month (UTC).",
    );

    const shown = h.github.world.comments.length;
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, body: "/agent budget", by: "reviewer" }));
    await h.settle();
    const [spend] = h.github.world.comments.slice(shown);
    expect(spend.body).toContain("- this installation: $0.0002 of $0.0002, 360 tokens, 3 calls");

    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, body: "/agent budget +1", by: "maintainer" }));
    await h.settle();
    ledger = await Ledger.open(h.app.deps.store, summary.id);
    expect(ledger.state.phase).toBe("done");
    const events = await h.app.deps.store.load(summary.id);
    const raised = events.filter((e) => e.type === "budget_raised");
    expect(raised).toEqual([expect.objectContaining({ usd: 1, by: expect.objectContaining({ login: "maintainer", via: "comment" }) })]);
    // The spend the store counts is the sum of the calls the ledger recorded.
    const calls = events.filter((e) => e.type === "llm_called");
    const spent = await h.app.deps.store.spendSince({ installationId: 77 }, "1970-01-01T00:00:00.000Z");
    expect(spent.calls).toBe(calls.length);
    expect(spent.usd).toBeCloseTo(
      calls.reduce((sum, e) => sum + (e.type === "llm_called" ? (e.costUsd ?? 0) : 0), 0),
      12,
    );
    // Governance, in the check run: the park and who raised the ceiling, by how much.
    const summary2 = theCheckRun(h).output.summary!;
    expect(summary2).toContain("**Budget**");
    // The check run's Markdown escapes `$`.
    expect(summary2).toMatch(/- Parked at .*: the installation's monthly ceiling of \\\$0\.0002 is reached: \\\$0\.0002 spent/);
    expect(summary2).toMatch(/- Raised by \*\*\\\$1\.00\*\* for this session by @\u2060maintainer via comment/);

    // The receipt of the published result names the raise: who, how much, when, the ceiling it lifted;
    // `patchgate verify` on a fresh clone says so. The plan's commit was made before it: it has none.
    const result = readBranch(h.bare, "patchgate/issue-1")!;
    const clone = join(root, "clone");
    execFileSync("git", ["clone", "--quiet", h.bare, clone]);
    execFileSync("git", ["fetch", "--quiet", "origin", "refs/notes/patchgate:refs/notes/patchgate"], { cwd: clone });
    const note = JSON.parse(execFileSync("git", ["notes", "--ref=refs/notes/patchgate", "show", result.sha], { cwd: clone, encoding: "utf8" })) as {
      payload: string;
    };
    const statement = JSON.parse(Buffer.from(note.payload, "base64").toString("utf8")) as ReceiptStatement;
    const [raise] = raised;
    expect(statement.predicate.budgetRaises).toEqual([
      {
        usd: 1,
        ceiling: { scope: "installation", unit: "usd", ceiling: 0.0002, spent: expect.closeTo(0.000216, 9) },
        approvedBy: { login: "maintainer", via: "comment", source: expect.stringMatching(/^comment:\d+$/), at: raise.at, seq: raise.seq },
      },
    ]);
    const keyFile = join(root, "keys.json");
    writeFileSync(keyFile, JSON.stringify(publicKeysDocument(h.app.deps.receipts!.keys)));
    const verified = await cli(["verify", `${result.parents[0]}^..${result.sha}`, "--key", keyFile, "--repo", clone], {});
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout.split("\n").filter((l) => l.includes("budget"))).toEqual([
      `${result.sha.slice(0, 12)}: budget raised by $1.00 for this session by maintainer via comment at ${raise.at}, parked at the installation's monthly ceiling of $0.0002 ($0.0002 spent)`,
    ]);
    expect(h.app.errors).toEqual([]);
    // A whole session, its receipts and a verify process, on a machine shared with other test runs.
  }, 300_000);
});
