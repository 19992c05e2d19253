import { startHarness, type Harness } from "../../harness/harness.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript } from "../../harness/story.js";
import { toDelivery } from "../../../src/github/inbound/triggers.js";
import { MalformedWebhookError } from "../../../src/github/inbound/malformed-webhook.js";

describe("malformed webhooks", () => {
  test("a comment event without its comment is a typed error naming the delivery", () => {
    const payload = {
      action: "created",
      repository: { name: "r", owner: { login: "o" }, default_branch: "main" },
      installation: { id: 1 },
      sender: { login: "alice", id: 1, type: "User" },
      issue: { number: 1 },
    };
    let err: unknown;
    try {
      toDelivery("d-1", "issue_comment.created", payload);
    } catch (e) {
      err = e;
    }
    expect(MalformedWebhookError.isInstance(err)).toBe(true);
    expect((err as MalformedWebhookError).deliveryId).toBe("d-1");
    expect((err as MalformedWebhookError).message).toMatch(/^malformed issue_comment\.created delivery d-1: /);
  });

  test("a repository without an owner is malformed too, not a crash", () => {
    const payload = { repository: { name: "r" }, installation: { id: 1 }, sender: { login: "a", id: 1, type: "User" } };
    expect(() => toDelivery("d-2", "issues.labeled", payload)).toThrow(MalformedWebhookError);
  });

  describe("over signed HTTP", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ script: storyScript(), files: STORY_FILES, permissions: STORY_PERMISSIONS });
    });
    afterAll(() => h.close());

    test("is answered 2xx, logged with what was missing, and changes nothing", async () => {
      const good = h.payloads.comment({ number: 1, body: "/agent fix this", by: "maintainer" }) as Record<string, unknown>;
      const { comment: _dropped, ...broken } = good;
      const calls = h.github.world.calls.length;
      const r = await h.send("issue_comment", broken, "broken-1");
      await h.settle();
      expect(r.status).toBe(200);
      expect(h.github.world.calls.length).toBe(calls);
      expect(await h.app.deps.store.list()).toEqual([]);
      expect(h.openai.requests).toHaveLength(0);
      expect(h.timeline.some((l) => l.startsWith("malformed issue_comment.created delivery broken-1: "))).toBe(true);
    });
  });
});
