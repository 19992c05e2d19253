import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Harness } from "../../harness/harness.js";
import { ISSUE, STORY_FILES, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * A setup that fails (a registry down, say) is recorded once and not run again on every resume; the
 * maintainer fixes what was wrong outside the repository and `/agent retry` runs it again. Here the
 * setup passes once `.git/pg-setup-ok` exists in the clone (the sandbox sees .git read-only).
 */
const SETUP = 'test -e .git/pg-setup-ok || { echo "registry unreachable" >&2; exit 4; }\n';
const CONFIG = "test: sh test.sh\nsetup: sh setup.sh\nsandbox:\n  backend: bubblewrap\n";

describe("/agent retry runs a failed setup again", () => {
  let h: Harness;
  afterAll(async () => h?.close());

  test("failed at execute start, answered from the ledger, run again after /agent retry", async () => {
    const script = [
      { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "Fix add().", steps: ["Fix the operator"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "add() adds." } }] },
    ];
    h = await storyHarness({ script, files: { ...STORY_FILES, ".github/patchgate.yml": CONFIG, "setup.sh": SETUP } });
    h.github.world.files.set(".github/patchgate.yml", CONFIG);
    await storySteps.ask(h);
    await storySteps.approvePlan(h); // setup fails; run_tests answers the recorded failure; the edit asks

    const [{ id }] = await h.app.deps.store.list();
    const ledger = async () => Ledger.open(h.app.deps.store, id);
    let l = await ledger();
    expect(l.state.phase).toBe("awaiting_write_approval");
    expect(l.history.filter((e) => e.type === "setup_run")).toHaveLength(1);
    const answered = l.history.find((e) => e.type === "tool_result" && e.tool === "run_tests");
    expect(answered?.type === "tool_result" && !answered.result.ok && answered.result.error).toMatchObject({
      code: "setup_failed",
      details: { recorded: true },
    });

    writeFileSync(join(h.app.deps.workspacesDir, id, ".git", "pg-setup-ok"), "");
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent retry", by: "maintainer" }));
    await h.settle();
    l = await ledger();
    // Parked on the batch: the retry is recorded, and the setup runs at the next resume, first thing.
    expect(l.history.at(-1)).toMatchObject({ type: "setup_retry_requested", by: "maintainer" });

    await storySteps.approveWrites(h);
    l = await ledger();
    expect(l.state.phase).toBe("done");
    const order = l.history.flatMap((e) => (e.type === "setup_run" ? [`setup:${e.exitCode}`] : e.type === "tool_result" ? [e.tool] : []));
    expect(order).toEqual(["read_file", "submit_plan", "setup:4", "run_tests", "setup:0", "edit_file", "run_tests", "finish"]);
    const text = h.github.world.checkRuns.at(-1)!.output.text ?? "";
    expect(text).toContain("setup `sh setup.sh` failed (exit 4)");
    expect(h.app.errors).toEqual([]);
  }, 240_000);
});
