import { rmSync } from "node:fs";
import { join } from "node:path";
import type { FakeGitHub } from "../../fakes/github/github-server.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/chat/server.js";
import { AppProcess } from "../../helpers/app-process.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";
import { statusJson } from "../../helpers/status-json.js";
import { storyGitHub } from "../../helpers/story-github.js";

/**
 * A session whose job kills every worker that runs it: real worker processes on a real PostgreSQL,
 * each killed with SIGKILL while it waits for the model (the fake model holds every call). After the
 * third death the next worker dead-letters the job, and the session ends where people look: the
 * ledger says `worker_died`, the check run completes as a failure naming the dead letter and
 * `/agent retry`, the issue hears it once, and `patchgate status` lists the dead letter.
 */
const cluster = postgresForTests("the dead-letter test");

if (!cluster) {
  test.skip("dead letters on the check run (needs PostgreSQL)", () => undefined);
} else {
  let root: string;
  let db: TestDatabase;
  let github: FakeGitHub;
  let openai: FakeOpenAIServer;
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    root = tempDir("pg-dead-letter-");
    db = await freshDatabase(cluster);
    ({ github } = await storyGitHub(root));
    openai = await startFakeOpenAI([{ hold: true }, { hold: true }, { hold: true }]);
  });
  afterAll(async () => {
    for (const p of procs) await p.stop();
    await openai?.close();
    await github?.close();
    await db?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const start = async (role: "serve" | "worker", name: string): Promise<AppProcess> => {
    const settings = {
      ...appSettings(github, root),
      workspacesDir: join(root, name, "workspaces"),
      openaiBaseURL: openai.baseURL,
      apiKey: HARNESS_API_KEY,
      scaleOut: { databaseUrl: db.url, role, owner: name, slots: 1, leaseMs: 1_500, heartbeatMs: 250, sweepMs: 100 },
    };
    const p = await AppProcess.start(settings);
    procs.push(p);
    return p;
  };

  test("the job's third dead worker ends the session: failed check run, one comment, listed by status", async () => {
    const receiver = await start("serve", "receiver");
    const payloads = new Payloads(github.world);
    const sent = await sendWebhook(
      receiver.webhookUrl,
      SECRET,
      "issue_comment",
      payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }),
    );
    expect(sent.status).toBeLessThan(300);
    // Three workers in turn, each killed with SIGKILL while its model call hangs.
    for (let n = 1; n <= 3; n++) {
      const worker = await start("worker", `worker-${n}`);
      await openai.held(n);
      await worker.kill9();
    }
    const last = await start("worker", "worker-4");
    await receiver.settle();
    expect(last.lines.join("\n")).toContain("is dead-lettered: its worker died 3 time(s)");
    expect(last.lines.filter((l) => / failed: (?!its job)/.test(l) && !l.includes("dead-lettered"))).toEqual([]);

    const store = new PostgresSessionStore(db.url);
    try {
      const [summary] = await store.list();
      const ledger = await Ledger.open(store, summary.id);
      expect(ledger.state.phase).toBe("failed");
      expect(ledger.state.failure).toEqual({ reason: "worker_died", message: expect.stringContaining("dead-lettered: the worker running it died 3 times") });
      expect(ledger.history.filter((e) => e.type === "session_failed")).toHaveLength(1);
      // The poison delivery is done in the inbox: a receiver's boot replay does not queue it again.
      expect(await store.pendingDeliveries()).toEqual([]);
    } finally {
      await store.close();
    }

    // The check run: every run completed, the current one a failure that says what happened and what to do.
    expect(github.world.checkRuns.length).toBeGreaterThan(0);
    expect(github.world.checkRuns.every((r) => r.status === "completed")).toBe(true);
    const run = github.world.checkRuns.at(-1)!;
    expect(run.conclusion).toBe("failure");
    expect(run.output.title).toContain("worker_died");
    expect(run.output.summary).toContain("dead-lettered");
    expect(run.output.summary).toContain("`/agent retry`");
    const ended = github.world.comments.filter((c) => c.issue_number === ISSUE.number && c.body.includes("worker_died"));
    expect(ended).toHaveLength(1);
    expect(ended[0].body).toContain("`/agent retry`");
    expect(ended[0].body).not.toMatch(/worker-\d|:\d+:/); // no worker's host or process named

    const { code, status } = await statusJson(db.url);
    expect(code).toBe(3);
    expect(status.dead).toEqual([expect.objectContaining({ name: expect.stringContaining("issue_comment"), attempts: 4 })]);
    expect([status.queued, status.running]).toEqual([0, 0]);
  }, 180_000);
}
