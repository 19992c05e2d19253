import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM, type ScriptStep } from "../fakes/scripted-llm.js";
import { approvePlan, approveWrites } from "../../src/agent/approvals.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const cli = { login: "maintainer", via: "cli" as const };

const beforeApproval: ScriptStep[] = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["edit src/add.js", "run tests"] } }] },
];
const afterApproval: ScriptStep[] = [
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
];

/** Runs the whole story; `between` runs while the session is parked at plan approval. */
async function story(h: SessionHarness, between: () => Promise<void>) {
  await h.resume(new ScriptedLLM(beforeApproval));
  expect(h.ledger.state.phase).toBe("awaiting_plan_approval");
  await between();
  await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
  const llm = new ScriptedLLM(afterApproval);
  expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_write_approval" });
  await approveWrites(h.ledger, cli, h.ledger.state.pending!.digest);
  return h.resume(llm);
}

describe("a parked session survives a restart", () => {
  test("park at plan approval, drop everything, reopen the SQLite file, approve, finish: same outcome", async () => {
    const plain = await SessionHarness.create(BUGGY_ADD_REPO);
    const restarted = await SessionHarness.create(BUGGY_ADD_REPO);
    try {
      const a = await story(plain, async () => {});
      const b = await story(restarted, () => restarted.restart());
      expect(a).toEqual({ kind: "ready_to_publish" });
      expect(b).toEqual(a);
      const types = (h: SessionHarness) => h.ledger.history.map((e) => e.type);
      expect(types(restarted)).toEqual(types(plain));
      expect(restarted.results()).toEqual(plain.results());
      expect(restarted.ledger.state.testRuns.map((r) => [r.exitCode, r.treeHash])).toEqual(plain.ledger.state.testRuns.map((r) => [r.exitCode, r.treeHash]));
      expect(readFileSync(join(restarted.workspace.root, "src/add.js"), "utf8")).toBe(readFileSync(join(plain.workspace.root, "src/add.js"), "utf8"));
      expect(restarted.ledger.state.latestDiff?.patch).toEqual(plain.ledger.state.latestDiff?.patch);
    } finally {
      await plain.dispose();
      await restarted.dispose();
    }
  });
});
