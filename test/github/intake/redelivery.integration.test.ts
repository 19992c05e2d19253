import { type Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { storyHarness } from "../../harness/story-helpers.js";

describe("redelivery", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await storyHarness();
  });
  afterAll(() => h.close());

  test("the same X-GitHub-Delivery sent again is answered 200 and changes nothing", async () => {
    const payload = h.payloads.comment({ number: 1, title: ISSUE.title, body: "/agent fix this", by: "maintainer" });
    const first = await h.send("issue_comment", payload, "delivery-1");
    await h.settle();
    const calls = h.github.world.calls.length;
    const sessions = await h.app.deps.store.list();
    const llmCalls = h.openai.requests.length;

    const again = await h.send("issue_comment", payload, "delivery-1");
    await h.settle();
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(h.github.world.calls.length).toBe(calls);
    expect(await h.app.deps.store.list()).toEqual(sessions);
    expect(h.openai.requests.length).toBe(llmCalls);
    expect(h.timeline).toContain("redelivery delivery-1 ignored (already done)");
  });

  test("a wrongly signed delivery is refused with 400 and recorded nowhere", async () => {
    const { sendWebhook } = await import("../../fakes/github/webhook-sender.js");
    const calls = h.github.world.calls.length;
    const r = await sendWebhook(
      h.app.webhookUrl,
      "not-the-secret",
      "issue_comment",
      h.payloads.comment({ number: 3, body: "/agent fix this", by: "maintainer" }),
      "forged-1",
    );
    await h.settle();
    expect(r.status).toBe(400);
    expect(h.github.world.calls.length).toBe(calls);
    expect(await h.app.deps.store.receiveDelivery({ id: "forged-1", event: "probe", payload: "{}" })).toBe("new");
  });

  test("a delivery stored but not done (what a crash leaves) is processed when GitHub redelivers it", async () => {
    const payload = h.payloads.comment({ number: 5, title: "Another bug", body: "/agent fix this", by: "maintainer" });
    expect(await h.app.deps.store.receiveDelivery({ id: "delivery-5", event: "issue_comment", payload: JSON.stringify(payload) })).toBe("new");
    const sessions = (await h.app.deps.store.list()).length;
    const again = await h.send("issue_comment", payload, "delivery-5");
    await h.settle();
    expect(again.status).toBe(200);
    expect(await h.app.deps.store.list()).toHaveLength(sessions + 1);
    expect((await h.app.deps.store.pendingDeliveries()).map((d) => d.id)).not.toContain("delivery-5");
    expect(h.timeline).toContain("delivery delivery-5 done");
  });
});
