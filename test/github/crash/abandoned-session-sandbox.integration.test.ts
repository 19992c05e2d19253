import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Harness } from "../../harness/harness.js";
import { ISSUE, PLAN, storySteps } from "../../harness/story.js";
import { StuckAfterScript } from "../../fakes/stuck-model.js";
import { bwrapsNaming, leftAfter, spawnHelpers } from "../../sandbox/process-tree.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * A session left mid-run by the app keeps nothing running. The model plans, the plan is approved,
 * the baseline test run starts the session's long-lived bubblewrap sandbox (beside the model's next
 * call, and it stays up once the run ends), and the model never answers again (its call ignores the abort, as a stuck connection can): the resume never returns,
 * so its own `finally` never closes the sandbox. Whoever leaves it behind must: the app killed under
 * it (crash semantics: the work stays abandoned, unawaited), or a stop whose lane gave up on it.
 * Before, its bwrap and the spawn helper running it lived as long as the process (jest needed
 * `forceExit`).
 */
const script = [{ toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] }, { toolCalls: [{ name: "submit_plan", arguments: PLAN }] }];

async function stuckAfterApproval(h: Harness, llm: StuckAfterScript): Promise<string> {
  await storySteps.ask(h);
  const pr = h.github.world.pulls[0];
  // Not storySteps.approvePlan: it waits for the queue, which the stuck job never lets go idle.
  await h.send("pull_request_review", h.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
  await llm.stuck;
  await baselineRecorded(h);
  return h.app.deps.workspacesDir;
}

/** The baseline runs beside the stuck call: once it is recorded, the session's sandbox is up, and stays. */
async function baselineRecorded(h: Harness): Promise<void> {
  for (;;) {
    const [session] = await h.app.deps.store.list();
    if (session && (await h.app.deps.store.load(session.id)).some((e) => e.type === "baseline_run")) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("the app killed while a model call hangs: no bwrap of the session is left, and the spawn helper exits", async () => {
  // A test file that ran before this one in the same jest worker may still have its idle helper.
  const earlier = new Set(spawnHelpers());
  const ours = () => spawnHelpers().filter((pid) => !earlier.has(pid));
  const llm = new StuckAfterScript(script);
  const h = await storyHarness({ script: [], llm: () => llm });
  try {
    const workspaces = await stuckAfterApproval(h, llm);
    expect(bwrapsNaming(workspaces).length).toBeGreaterThan(0);
    expect(ours()).toHaveLength(1);

    await h.app.kill();
    expect(await leftAfter(5_000, () => bwrapsNaming(workspaces))).toEqual([]);
    // Idle, the helper is let go after 10 s (src/process/helper-connection.ts): nothing holds it now.
    expect(await leftAfter(30_000, ours)).toEqual([]);
  } finally {
    // Not h.close(): the killed app's queue still counts the abandoned job, so closing it would wait for ever.
    await h.openai.close();
    await h.github.close();
    rmSync(join(h.app.deps.workspacesDir, "..", ".."), { recursive: true, force: true });
  }
}, 60_000);

test("/agent stop while a model call hangs: the lane gives up on the job, and once the app is closed no bwrap of the session is left", async () => {
  const llm = new StuckAfterScript(script);
  const h = await storyHarness({ script: [], llm: () => llm, abandonAfterAbortMs: 200 });
  try {
    const workspaces = await stuckAfterApproval(h, llm);
    expect(bwrapsNaming(workspaces).length).toBeGreaterThan(0);
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    expect(h.timeline).toContain(`a job for #${ISSUE.number} did not end within 200 ms of its abort; its lane goes on without it`);
  } finally {
    await h.close();
  }
  expect(await leftAfter(5_000, () => bwrapsNaming(h.app.deps.workspacesDir))).toEqual([]);
}, 60_000);
