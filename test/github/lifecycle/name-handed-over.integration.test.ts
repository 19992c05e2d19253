import type { Harness } from "../../harness/harness.js";
import { ISSUE, STORY_PERMISSIONS, storySteps } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * The app path of "tenants never share": installation 77's session on `octo-org/calculator#1`, kept
 * under the name key an older store wrote, and then the name belongs to another repository (id
 * 5000) of installation 99. Mallory's `/agent status` on her issue #1 is answered as for an issue
 * with no session: nothing of installation 77's session (phase, plan hash, marker) reaches her.
 */
let h: Harness;
beforeEach(async () => {
  h = await storyHarness({ permissions: { ...STORY_PERMISSIONS, mallory: "admin" } });
});
afterEach(() => h.close());

test("a session stored by name is not shown to the repository that took the name in another installation", async () => {
  await storySteps.ask(h);
  const [session] = await h.app.deps.store.list();
  const plan = (await Ledger.open(h.app.deps.store, session.id)).state.planHash!;
  await h.app.deps.store.setKey(session.id, `octo-org/calculator#${ISSUE.number}`);

  // The name now answers for another repository, of another installation.
  Object.assign(h.github.world, { repoId: 5000, installationId: 99 });
  const hers = new Payloads(h.github.world, 99);
  const before = h.github.world.comments.length;
  await h.send("issue_comment", hers.comment({ number: ISSUE.number, body: "/agent status", by: "mallory" }));
  await h.settle();

  const answers = h.github.world.comments.slice(before).map((c) => c.body);
  expect(answers.map((b) => b.split("\n\n<!--")[0])).toEqual(["No Patchgate session for this issue yet. `/agent fix this` starts one."]);
  expect(answers.join("\n")).not.toContain(plan.slice(0, 12));
  expect(answers.join("\n")).not.toContain(session.id);
  expect((await h.app.deps.store.list()).map((s) => [s.id, s.key])).toEqual([[session.id, `octo-org/calculator#${ISSUE.number}`]]);
});
