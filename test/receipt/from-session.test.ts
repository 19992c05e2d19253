import { emptyState } from "../../src/session/empty-state.js";
import type { SessionEvent, StoredEvent } from "../../src/session/events.js";
import type { SessionState } from "../../src/session/state.js";
import { policyDigest, receiptStatementFor, type ReceiptInput } from "../../src/receipt/from-session.js";
import { ReceiptPredicateSchema } from "../../src/receipt/predicate-schema.js";
import { readReceiptStatement } from "../../src/receipt/read-statement.js";

const TREE = "1111111111111111111111111111111111111111";
const OTHER_TREE = "2222222222222222222222222222222222222222";
const BLOB = "3333333333333333333333333333333333333333";
const COMMIT = "4444444444444444444444444444444444444444";
const BASE = "5555555555555555555555555555555555555555";
const TOKEN = ["ghp", "_", "Z".repeat(36)].join("");

const human = { login: "octocat", via: "comment" as const, source: "comment:7" };
const stored = (events: SessionEvent[]): StoredEvent[] => events.map((e, seq) => ({ ...e, seq, at: `2026-12-06T06:00:${String(seq).padStart(2, "0")}.000Z` }));

const EVENTS = stored([
  { type: "workspace_prepared", baseCommit: BASE, workdir: "/w" },
  { type: "plan_submitted", plan: { summary: "s", steps: ["a"] }, hash: "plan-hash" },
  { type: "plan_approved", hash: "plan-hash", by: human },
  { type: "policy_decided", callId: "c1", tool: "write_file", decision: "ask", rule: "writes.ask", subject: "src/a.js" },
  { type: "policy_decided", callId: "c2", tool: "run_command", decision: "ask", rule: "commands.ask", subject: `npm run fmt --token ${TOKEN}` },
  {
    type: "approval_requested",
    digest: "batch-1",
    calls: [
      { callId: "c1", tool: "write_file", input: {}, preview: "diff", rule: "writes.ask" },
      { callId: "c2", tool: "run_command", input: {}, preview: "npm run fmt", rule: "commands.ask" },
    ],
  },
  { type: "approval_granted", digest: "batch-1", by: human },
  { type: "file_written", path: "src/a.js", hash: "h1" },
  { type: "command_changed", tool: "run_command", paths: ["src/b.js"] },
  { type: "test_run", command: "npm test", exitCode: 1, treeHash: OTHER_TREE, durationMs: 5, timedOut: false, summary: "x", failing: ["t1"] },
  { type: "test_run", command: "npm test", exitCode: 0, treeHash: TREE, durationMs: 5, timedOut: false, summary: "ok", failing: [] },
]);

const STATE: SessionState = {
  ...emptyState(),
  sessionId: "s-1",
  task: { title: "t", body: "a prompt that must not appear", source: { kind: "github", repo: "octo/demo", requester: "alice", installationId: 9, repoId: 42 } },
  model: "gpt-test",
  baseCommit: BASE,
  planHash: "plan-hash",
  approvedPlanHash: "plan-hash",
  finishedTree: TREE,
  repoConfig: { policy: { allow_commands: ["npm test"] }, test: "npm test" },
  usage: { promptTokens: 100, completionTokens: 20, estimated: false, calls: 3, costUsd: 0.5 },
};

const INPUT: ReceiptInput = {
  state: STATE,
  events: EVENTS,
  kind: "result",
  commit: COMMIT,
  tree: TREE,
  changes: [
    { path: "src/b.js", blob: null },
    { path: "src/a.js", blob: BLOB },
  ],
  repository: "octo/demo",
  version: "patchgate 0.1.0",
  ledgerHead: null,
  previousReceipt: null,
};

describe("receiptStatementFor", () => {
  const statement = receiptStatementFor(INPUT);

  it("is the in-toto statement of the commit with everything derived from the ledger", () => {
    const at = (seq: number) => EVENTS[seq].at;
    expect(statement).toEqual({
      _type: "https://in-toto.io/Statement/v1",
      subject: [{ name: "git+octo/demo", digest: { gitCommit: COMMIT } }],
      predicateType: "https://patchgate.dev/receipt/v1",
      predicate: {
        kind: "result",
        sessionId: "s-1",
        repository: { name: "octo/demo", id: 42, installationId: 9, requester: "alice" },
        baseCommit: BASE,
        tree: TREE,
        paths: [
          { path: "src/a.js", blob: BLOB, seq: 7 },
          { path: "src/b.js", blob: null, seq: 8 },
        ],
        plan: { hash: "plan-hash", approvedBy: { ...human, at: at(2), seq: 2 } },
        writeBatches: [{ digest: "batch-1", decision: "granted", approvedBy: { ...human, at: at(6), seq: 6 } }],
        writesAutoApproved: null,
        approvedCommands: [{ digest: "batch-1", tool: "run_command", command: "npm run fmt --token [REDACTED:github_token]" }],
        testRuns: [{ command: "npm test", tree: TREE, passed: true, exitCode: 0, failing: 0, seq: 10 }],
        finish: { tree: TREE, preExistingFailures: [] },
        policy: {
          digest: policyDigest({ policy: { allow_commands: ["npm test"] } }),
          decisions: [
            { seq: 3, tool: "write_file", decision: "ask", rule: "writes.ask" },
            { seq: 4, tool: "run_command", decision: "ask", rule: "commands.ask" },
          ],
        },
        model: { name: "gpt-test", promptTokens: 100, completionTokens: 20, calls: 3, costUsd: 0.5 },
        patchgateVersion: "patchgate 0.1.0",
        ledgerHead: null,
        previousReceipt: null,
        testIntegrity: null,
      },
    });
  });

  it("carries the test-integrity verdict of the published tree, without the diff lines", () => {
    const finding = {
      kind: "skip_marker_added",
      detector: "js.skip",
      path: "test/a.test.js",
      message: "`it.skip(` added",
      lines: ["+  it.skip('adds', () => {"],
    };
    const report = { findings: [finding], detectorsRun: 32, testFilesExamined: 1 };
    const events = stored([
      ...EVENTS,
      { type: "integrity_checked", treeHash: OTHER_TREE, digest: "other", report: { findings: [], detectorsRun: 32, testFilesExamined: 0 } },
      { type: "integrity_checked", treeHash: TREE, digest: "findings-1", report, approvedBy: human },
    ]);
    const p = receiptStatementFor({ ...INPUT, events }).predicate;
    expect(p.testIntegrity).toEqual({
      digest: "findings-1",
      detectorsRun: 32,
      testFilesExamined: 1,
      findings: [{ kind: "skip_marker_added", detector: "js.skip", path: "test/a.test.js", message: "`it.skip(` added" }],
      approvedBy: { login: "octocat", via: "comment", source: "comment:7", at: events.at(-1)?.at, seq: events.length - 1 },
    });
    expect(JSON.stringify(p)).not.toContain("it.skip('adds'");
  });

  it("names each raise of the operator's ceilings with who gave it and the ceiling it lifted; none without raises", () => {
    expect(statement.predicate).not.toHaveProperty("budgetRaises");
    const maintainer = { login: "maintainer", via: "comment" as const, source: "comment:9" };
    const events = stored([
      ...EVENTS,
      { type: "budget_parked", scope: "repository", unit: "usd", ceiling: 5, spent: 5.01, resumeIn: "executing" },
      { type: "budget_raised", usd: 2, by: maintainer },
      { type: "budget_raised", usd: 0.5, by: human },
    ]);
    const p = receiptStatementFor({ ...INPUT, events }).predicate;
    const at = (seq: number) => events[seq].at;
    expect(p.budgetRaises).toEqual([
      { usd: 2, ceiling: { scope: "repository", unit: "usd", ceiling: 5, spent: 5.01 }, approvedBy: { ...maintainer, at: at(12), seq: 12 } },
      { usd: 0.5, ceiling: null, approvedBy: { ...human, at: at(13), seq: 13 } },
    ]);
    expect(ReceiptPredicateSchema.safeParse(p).success).toBe(true);
  });

  it("holds no prompt text and no secret, and matches its own schema", () => {
    const text = JSON.stringify(statement);
    expect(text).not.toContain("a prompt that must not appear");
    expect(text).not.toContain(TOKEN);
    expect(ReceiptPredicateSchema.safeParse(statement.predicate).success).toBe(true);
    expect(readReceiptStatement(JSON.parse(text))).toEqual(statement);
  });

  it("hashes the policy settings whatever the order of their keys", () => {
    expect(policyDigest({ policy: { b: 1, a: [2, { d: 1, c: 2 }] } })).toBe(policyDigest({ policy: { a: [2, { c: 2, d: 1 }], b: 1 } }));
    expect(policyDigest({ policy: { a: 1 } })).not.toBe(policyDigest(null));
    expect(policyDigest(null)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("names what is wrong with a statement that is not a Patchgate receipt", () => {
    expect(readReceiptStatement({ ...statement, predicateType: "https://slsa.dev/provenance/v1" })).toBe(
      'the predicate type is "https://slsa.dev/provenance/v1", not https://patchgate.dev/receipt/v1',
    );
    expect(readReceiptStatement({ ...statement, predicate: { ...statement.predicate, tree: 7 } })).toBe(
      "the predicate does not match https://patchgate.dev/receipt/v1: tree: Invalid input: expected string, received number",
    );
  });
});
