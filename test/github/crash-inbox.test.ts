import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBareRepo, readBranch } from "../../src/demo/fakes/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../src/demo/fakes/github-server.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../src/demo/fakes/openai-server.js";
import { Payloads } from "../../src/demo/fakes/payloads.js";
import { sendWebhook } from "../../src/demo/fakes/webhook-sender.js";
import { ISSUE, STORY_FILES, STORY_PERMISSIONS, storyScript } from "../../src/demo/story.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { AppProcess } from "../helpers/app-process.js";
import { R } from "./helpers.js";

/**
 * A delivery answered 2xx survives the process dying before its job's first effect: kill -9 of a real
 * app process while the job waits on its first GitHub call, a new process on the same SQLite file,
 * and the work happens exactly once — from the inbox at boot, and not again for GitHub's redelivery.
 */
const SECRET = "webhook-secret-for-crash-tests";

describe("the inbox across kill -9", () => {
  let root: string;
  let github: FakeGitHub;
  let openai: FakeOpenAIServer;
  let payloads: Payloads;
  let bare: string;
  let settings: Record<string, unknown>;
  let app: AppProcess;
  const send = (event: string, payload: unknown, id?: string) => sendWebhook(app.webhookUrl, SECRET, event, payload, id);
  const done = (id: string) => app.logged((l) => l === `delivery ${id} done`);

  /** The next call of the job to GitHub's repository API waits; resolves when it is reached. */
  function holdNextRepoCall(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const r = new Promise<void>((resolve) => (reached = resolve));
    github.world.holdNext.push({ method: "GET", pathPrefix: `${R}/`, reached, until: new Promise<void>((resolve) => (release = resolve)) });
    return { reached: r, release };
  }

  async function events(): Promise<string[]> {
    const store = SqliteSessionStore.open(settings.dbFile as string);
    try {
      const [s] = await store.list();
      return (await store.load(s.id)).map((e) => e.type);
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "pg-crash-"));
    bare = createBareRepo(join(root, "remote"), "octo-org", "calculator", STORY_FILES);
    github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    openai = await startFakeOpenAI(storyScript());
    payloads = new Payloads(github.world);
    payloads.headSha = (branch) => readBranch(bare, branch)?.sha ?? "0".repeat(40);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs8", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    mkdirSync(join(root, "data"), { recursive: true });
    settings = {
      appId: github.world.app.id,
      privateKey,
      secret: SECRET,
      gheHost: github.host,
      dbFile: join(root, "data", "patchgate.sqlite"),
      workspacesDir: join(root, "data", "workspaces"),
      openaiBaseURL: openai.baseURL,
      apiKey: "sk-test-crash-key-0123456789",
      model: "fake-model",
      secrets: [SECRET],
      checkRunThrottleMs: 3_600_000,
    };
    app = await AppProcess.start(settings);
  });
  afterAll(async () => {
    await app.stop();
    await openai.close();
    await github.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("an approval whose process died after the 2xx is applied once by the next process", async () => {
    const ask = await send("issue_comment", payloads.comment({ number: ISSUE.number, title: ISSUE.title, issueBody: ISSUE.body, body: "/agent fix this", by: "maintainer" }));
    await done(ask.id);
    const pr = github.world.pulls[0];
    expect(pr.draft).toBe(true);

    const hold = holdNextRepoCall();
    const review = await send("pull_request_review", payloads.review({ pr: pr.number, state: "approved", body: "Looks right.", by: "reviewer" }));
    expect(review.status).toBe(200);
    await hold.reached;
    await app.kill9();
    hold.release();
    expect(await events()).not.toContain("plan_approved");

    app = await AppProcess.start(settings);
    await done(review.id);
    const after = await events();
    expect(after.filter((t) => t === "plan_approved")).toHaveLength(1);
    expect(after.at(-1)).toBe("approval_requested");
    expect(app.lines).toContain(`delivery ${review.id} (pull_request_review.submitted) was not done when the app stopped → queued again`);

    // GitHub redelivers it: a no-op now.
    const calls = github.world.calls.length;
    const again = await send("pull_request_review", payloads.review({ pr: pr.number, state: "approved", body: "Looks right.", by: "reviewer" }), review.id);
    expect(again.status).toBe(200);
    await app.logged((l) => l === `redelivery ${review.id} ignored (already done)`);
    expect(github.world.calls.length).toBe(calls);
  });

  test("a write approval killed the same way, then redelivered by GitHub while the new process runs it: done once", async () => {
    const pr = github.world.pulls[0];
    const payload = payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" });
    const hold = holdNextRepoCall();
    const approve = await send("issue_comment", payload);
    await hold.reached;
    await app.kill9();
    hold.release();

    app = await AppProcess.start(settings);
    const again = await send("issue_comment", payload, approve.id);
    expect(again.status).toBe(200);
    await done(approve.id);
    const after = await events();
    expect(after.filter((t) => t === "approval_granted")).toHaveLength(1);
    expect(after.at(-1)).toBe("published");
    expect(github.world.pulls).toHaveLength(1);
    expect(github.world.pulls[0].draft).toBe(false);
    expect(github.world.comments.filter((c) => c.body.startsWith("✅ Done"))).toHaveLength(1);
    expect(openai.remaining()).toBe(0);
  });
});
