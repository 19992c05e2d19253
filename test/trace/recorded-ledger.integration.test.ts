import type { StoredEvent } from "../../src/session/events.js";
import { Ledger } from "../../src/store/ledger.js";
import { storySteps } from "../harness/story.js";
import { storyHarness } from "../harness/story-helpers.js";
import { StoryLedger } from "./fixtures/story-ledger.js";

/**
 * The report's golden ledgers are built by test/trace/fixtures/story-ledger.ts. This holds that
 * builder to the real runtime: the demo story, run end to end (webhooks, model, sandbox, git),
 * appends the same events in the same order, with the same tools, verdicts, rules and approvers.
 */
const shape = (e: StoredEvent): string => {
  switch (e.type) {
    case "policy_decided":
      return `${e.type} ${e.tool} ${e.decision} ${e.rule}`;
    case "tool_result":
      return `${e.type} ${e.tool} ${e.result.ok ? "ok" : e.result.error.code}`;
    case "plan_approved":
    case "approval_granted":
      return `${e.type} @${e.by.login} via ${e.by.via}`;
    case "assistant_message":
      return `${e.type} ${e.toolCalls.map((c) => c.name).join(",")}`;
    default:
      return e.type;
  }
};

test("a real session appends what the fixture builder appends", async () => {
  const h = await storyHarness();
  try {
    await storySteps.ask(h);
    await storySteps.approvePlan(h);
    await storySteps.approveWrites(h);
    const [session] = await h.app.deps.store.list();
    const real = (await Ledger.open(h.app.deps.store, session.id)).history;

    const built = new StoryLedger().start().read().plan("p".repeat(64));
    built
      .approvePlan({ login: "reviewer", via: "review" }, "p".repeat(64))
      .baseline()
      .editAsked()
      .approveWrites({ login: "maintainer", via: "comment" })
      .tests(true)
      .finish("done")
      .publish();
    expect(real.map(shape)).toEqual(built.events.map(shape));
  } finally {
    await h.close();
  }
});
