import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approvePlan } from "../../src/agent/approvals.js";
import { publishLocally } from "../../src/cli/local-publisher.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
import { SessionHarness } from "../helpers/session-harness.js";

const FIXED = { ...BUGGY_ADD_REPO, "src/add.js": "export function add(a, b) {\n  return a + b;\n}\n" };

async function readyToPublish(): Promise<SessionHarness> {
  const h = await SessionHarness.create(FIXED);
  const llm = new ScriptedLLM([
    { toolCalls: [{ name: "submit_plan", arguments: { summary: "s", steps: ["a"] } }] },
    { toolCalls: [{ name: "run_tests", arguments: {} }] },
    { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
  ]);
  await h.resume(llm);
  await approvePlan(h.ledger, { login: "m", via: "cli" }, h.ledger.state.planHash!);
  expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
  return h;
}

describe("local publishing publishes the tested tree and nothing else", () => {
  test("unchanged since finish → a commit on the branch", async () => {
    const h = await readyToPublish();
    try {
      await publishLocally(h.ledger, h.workspace);
      expect(h.ledger.state.phase).toBe("done");
      const tree = execFileSync("git", ["-C", h.workspace.root, "rev-parse", `${h.ledger.state.published!.commit}^{tree}`], { encoding: "utf8" }).trim();
      expect(tree).toBe(h.ledger.state.finishedTree);
    } finally {
      await h.dispose();
    }
  });

  test("a file nobody wrote with a tool, left after finish, is not published", async () => {
    const h = await readyToPublish();
    try {
      writeFileSync(join(h.workspace.root, "late.txt"), "left after the gate\n");
      await publishLocally(h.ledger, h.workspace);
      const files = execFileSync("git", ["-C", h.workspace.root, "ls-tree", "-r", "--name-only", h.ledger.state.published!.commit], { encoding: "utf8" });
      expect([h.ledger.state.phase, files.split("\n").includes("late.txt")]).toEqual(["done", false]);
    } finally {
      await h.dispose();
    }
  });

  test("a publishable file changed after finish → the session fails as publish_failed and no branch is made", async () => {
    const h = await readyToPublish();
    try {
      // As if the agent had written it: the ledger lists it, so its content is part of what is published.
      await h.ledger.append({ type: "command_changed", tool: "run_command", paths: ["late.txt"] });
      writeFileSync(join(h.workspace.root, "late.txt"), "written after the gate\n");
      await publishLocally(h.ledger, h.workspace);
      expect(h.ledger.state.phase).toBe("failed");
      expect(h.ledger.state.failure?.reason).toBe("publish_failed");
      expect(h.ledger.state.failure?.message).toMatch(/^the workspace changed after finish was accepted/);
      const branches = execFileSync("git", ["-C", h.workspace.root, "branch", "--list", "patchgate/*"], { encoding: "utf8" });
      expect(branches).toBe("");
    } finally {
      await h.dispose();
    }
  });
});
