import { startHarness, SECRET, type Harness } from "../../harness/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript } from "../../harness/story.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";

/**
 * Probot's manifest flow registers a new app's webhook as `<base>/`: deliveries POSTed there are
 * received like those on /api/github/webhooks, verified the same way, over the app's real server.
 */
let h: Harness;
let root: string;
beforeEach(async () => {
  h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS });
  root = h.app.webhookUrl.replace(/\/api\/github\/webhooks$/, "/");
});
afterEach(() => h.close());

const help = () => h.github.world.comments.filter((c) => c.body.includes("Patchgate commands (write access required)"));

test("a signed delivery to / is handled like one to the webhook path", async () => {
  const sent = await sendWebhook(root, SECRET, "issue_comment", h.payloads.comment({ number: 1, body: "/agent", by: "maintainer" }));
  expect(sent.status).toBe(200);
  await h.settle();
  expect(help()).toHaveLength(1);
  // The same delivery again on the usual path is a duplicate: one inbox for both routes.
  expect(
    (await sendWebhook(h.app.webhookUrl, SECRET, "issue_comment", h.payloads.comment({ number: 1, body: "/agent", by: "maintainer" }), sent.id)).status,
  ).toBe(200);
  await h.settle();
  expect(help()).toHaveLength(1);
});

test("a wrong signature or a missing header on / is refused as on the webhook path, and nothing runs", async () => {
  const payload = h.payloads.comment({ number: 1, body: "/agent", by: "maintainer" });
  const forged = await sendWebhook(root, "not-the-secret", "issue_comment", payload);
  const usual = await sendWebhook(h.app.webhookUrl, "not-the-secret", "issue_comment", payload);
  expect(forged.status).toBe(usual.status);
  expect(forged.status).toBeGreaterThanOrEqual(400);
  const bare = await fetch(root, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(bare.status).toBe(400);
  await h.settle();
  expect(help()).toEqual([]);
  expect(await h.app.deps.store.list()).toEqual([]);
});

test("other requests to / are left to the other routes", async () => {
  expect((await fetch(root)).status).toBe(404);
  expect((await fetch(`${root}patchgate/health`)).status).toBe(200);
});
