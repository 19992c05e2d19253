import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Octokit } from "@octokit/rest";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import type { HookDelivery } from "../../fakes/github/hook-deliveries.js";
import { Payloads } from "../../fakes/github/payloads.js";
import type { Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { reconcileDeliveries, RECONCILE_DEFAULTS } from "../../../src/github/inbound/reconciler.js";
import type { Octokit as AppOctokit } from "../../../src/github/octokit.js";
import { Ledger } from "../../../src/store/ledger.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { storyHarness } from "../../harness/story-helpers.js";

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

/**
 * Which deliveries the reconciler asks GitHub to send again, decided from GitHub's own list of the
 * app's recent deliveries (the fake GitHub records every attempt it made, as GitHub does).
 */
describe("the reconciler's choice", () => {
  let gh: FakeGitHub;
  let store: SqliteSessionStore;
  let payloads: Payloads;
  let ok: Server;
  const lines: string[] = [];
  const root = tempDir("pg-reconcile-");
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const handles = (name: string) => ["issue_comment.created", "installation.deleted"].includes(name);
  const pass = () => {
    const app = new Octokit({ baseUrl: gh.apiUrl, auth: "header.payload.signature", log }) as unknown as AppOctokit;
    return reconcileDeliveries({ app: async () => app, store, log: (l) => lines.push(l), handles });
  };
  const asked = () => gh.world.calls.filter((c) => c.method === "POST" && c.path.startsWith("/app/hook/deliveries/")).map((c) => Number(c.path.split("/")[4]));
  const comment = () => payloads.comment({ number: 1, title: "Bug", body: "/agent fix this", by: "maintainer" });

  beforeAll(async () => {
    gh = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    store = SqliteSessionStore.open(join(root, "store.sqlite"));
    payloads = new Payloads(gh.world);
    ok = createServer((_req, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => ok.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await store.close();
    await gh.close();
    await new Promise<void>((resolve) => ok.close(() => resolve()));
  });

  test("a failed command is asked for; one that later succeeded, an event Patchgate ignores, and an old one are not", async () => {
    const hooks = gh.world.hooks;
    const failed = await hooks.deliver("issue_comment", comment());
    const recovered = await hooks.deliver("issue_comment", comment());
    hooks.url = `http://127.0.0.1:${(ok.address() as AddressInfo).port}/`;
    await hooks.redeliver(recovered.id);
    hooks.url = null;
    await hooks.deliver("push", { ...comment(), action: undefined });
    const old = await hooks.deliver("issue_comment", comment());
    old.delivered_at = new Date(Date.now() - RECONCILE_DEFAULTS.lookbackMs - 60_000).toISOString();

    expect(await pass()).toBe(1);
    expect(asked()).toEqual([failed.id]);
    expect(lines.at(-1)).toBe(`delivery ${failed.guid} (issue_comment.created) failed on GitHub (status 0) → redelivery requested (1 of 3)`);
  });

  test("an event that keeps failing is asked for at most three times", async () => {
    // The app is still down: each redelivery fails and shows up as another failed attempt.
    await pass();
    await pass();
    const before = asked().length;
    expect(await pass()).toBe(0);
    expect(asked().length).toBe(before);
    expect(asked()).toHaveLength(3);
  });

  test("a redelivery still in flight is not asked for again; a failed one is", async () => {
    const hooks = gh.world.hooks;
    const failed = await hooks.deliver("issue_comment", comment());
    // The app is up but slow: GitHub records the attempt only once the app has answered.
    let answer: () => void = () => {};
    const slow = createServer((_req, res) => (answer = () => void (res.headersSent || res.writeHead(200).end())));
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    hooks.url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
    const arrived = new Promise<void>((resolve) => slow.once("request", () => resolve()));
    try {
      const before = asked().length;
      await pass();
      expect(asked().slice(before)).toEqual([failed.id]);
      await arrived;
      // The next pass runs while GitHub is still sending it: nothing to ask.
      await pass();
      expect(asked().slice(before)).toEqual([failed.id]);
      expect(hooks.attempts.filter((a) => a.guid === failed.guid)).toHaveLength(1);
      answer();
      await until(() => hooks.attempts.filter((a) => a.guid === failed.guid).length === 2);
      await pass();
      expect(asked().slice(before)).toEqual([failed.id]);
    } finally {
      hooks.url = null;
      answer();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
    // Down again: each redelivery fails at once, and each failure is asked for again, up to the cap.
    const again = await hooks.deliver("issue_comment", comment());
    for (let i = 0; i < 4; i++) await pass();
    expect(asked().filter((id) => hooks.attempts.find((a) => a.id === id)?.guid === again.guid)).toHaveLength(3);
  });

  test("the list is read page after page (GitHub's cursor), newest first", async () => {
    const many = [];
    for (let i = 0; i < 130; i++) many.push(await gh.world.hooks.deliver("installation", { ...comment(), action: "deleted" }));
    const before = asked().length;
    expect(await pass()).toBe(130);
    expect(new Set(asked().slice(before))).toEqual(new Set(many.map((d) => d.id)));
    expect(gh.world.calls.filter((c) => c.path === "/app/hook/deliveries" && c.query.cursor !== undefined).length).toBeGreaterThan(0);
  });
});

describe("a delivery GitHub could not make while the app was down", () => {
  let h: Harness;
  beforeAll(async () => {
    // Passes every 100 ms: one that runs before the new app listens fails again and is asked for again.
    h = await storyHarness({ reconcile: { firstAfterMs: 0, everyMs: 100 } });
  });
  afterAll(() => h.close());

  test("is asked for again once the app is back, and applied exactly once", async () => {
    const w = h.github.world;
    const ask = await w.hooks.deliver(
      "issue_comment",
      h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }),
    );
    expect(ask.status_code).toBe(200);
    await h.settle();
    const pr = w.pulls[0];

    let review: HookDelivery | undefined;
    const applied = h.logged((l) => review !== undefined && l === `delivery ${review.guid} done`);
    await h.crash(async () => {
      review = await w.hooks.deliver("pull_request_review", h.payloads.review({ pr: pr.number, state: "approved", body: "Looks right.", by: "reviewer" }));
    });
    expect(review!.status_code).toBe(0);
    await applied;
    await h.settle();

    const requested = h.timeline.filter((l) =>
      l.startsWith(`delivery ${review!.guid} (pull_request_review.submitted) failed on GitHub (status 0) → redelivery requested`),
    );
    expect(requested.length).toBeGreaterThanOrEqual(1);
    const attempts = w.hooks.attempts.filter((a) => a.guid === review!.guid);
    expect(attempts[0]).toMatchObject({ redelivery: false, status_code: 0 });
    expect(attempts.filter((a) => a.status_code === 200)).toHaveLength(1);
    expect(attempts.at(-1)).toMatchObject({ redelivery: true, status_code: 200 });
    const [s] = await h.app.deps.store.list();
    const events = (await Ledger.open(h.app.deps.store, s.id)).history.map((e) => e.type);
    expect(events.filter((t) => t === "plan_approved")).toHaveLength(1);
    expect(h.app.errors).toEqual([]);
  });
});
