import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createBareRepo } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../harness/harness.js";
import { STORY_FILES, STORY_PERMISSIONS } from "../../harness/story.js";
import { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/chat/server.js";
import { AppProcess } from "../../helpers/app-process.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../../helpers/postgres.js";

/**
 * 1,000 signed deliveries across two receivers on one PostgreSQL, run by two workers: commands on
 * 40 issues, 10 % of them sent again under the same delivery id (GitHub's redelivery) and 5 %
 * replayed under a new id (the same comment, a new delivery). Every distinct comment is answered
 * exactly once; no session is started; the inbox ends with nothing pending.
 */
const cluster = postgresForTests("the 1,000-deliveries test");
const TOTAL = 1_000;

if (!cluster) {
  test.skip("1,000 deliveries across two receivers (needs PostgreSQL)", () => undefined);
} else {
  let root: string;
  let db: TestDatabase;
  let github: FakeGitHub;
  let openai: FakeOpenAIServer;
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    root = tempDir("pg-deliveries-");
    db = await freshDatabase(cluster);
    createBareRepo(join(root, "remote"), "octo-org", "calculator", STORY_FILES);
    github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    openai = await startFakeOpenAI([]);
  });
  afterAll(async () => {
    for (const p of procs) await p.stop();
    await openai.close();
    await github.close();
    await db.drop();
    rmSync(root, { recursive: true, force: true });
  });

  test("each distinct comment is answered once, whatever was sent twice or replayed", async () => {
    const settings = (role: "serve" | "worker", name: string) => ({
      ...appSettings(github, root),
      workspacesDir: join(root, name),
      openaiBaseURL: openai.baseURL,
      apiKey: HARNESS_API_KEY,
      scaleOut: { databaseUrl: db.url, role, owner: name, slots: 4 },
    });
    const receivers = [await AppProcess.start(settings("serve", "r1")), await AppProcess.start(settings("serve", "r2"))];
    procs.push(...receivers);
    for (const w of ["w1", "w2"]) procs.push(await AppProcess.start(settings("worker", w)));

    // The plan of sends: fresh comments, then 10 % resent under their id and 5 % under a new id.
    const payloads = new Payloads(github.world);
    const fresh = Math.round(TOTAL / 1.15);
    const sends: { id: string; payload: Record<string, unknown> }[] = [];
    for (let i = 0; i < fresh; i++) {
      const body = i % 2 === 0 ? "/agent help" : "/agent status";
      sends.push({ id: randomUUID(), payload: payloads.comment({ number: 1 + (i % 40), title: `Issue ${1 + (i % 40)}`, body, by: "maintainer" }) });
    }
    const resent = sends.filter((_, i) => i % 10 === 3).map((s) => ({ ...s }));
    const replayed = sends.filter((_, i) => i % 20 === 7).map((s) => ({ id: randomUUID(), payload: s.payload }));
    const all = [...sends, ...resent, ...replayed].slice(0, TOTAL);
    while (all.length < TOTAL) all.push({ ...sends[all.length % sends.length] });
    expect(all).toHaveLength(TOTAL);
    const distinctComments = new Set(all.map((s) => (s.payload.comment as { id: number }).id)).size;
    expect(distinctComments).toBe(fresh);

    // A send whose connection failed before any answer (a kept-alive socket the receiver closed as it
    // was reused, under load) is what GitHub records as a failed delivery and redelivers under the
    // same id: so does this sender, and the inbox must still act once.
    let resends = 0;
    const deliver = async (url: string, s: { id: string; payload: Record<string, unknown> }): Promise<number> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return (await sendWebhook(url, SECRET, "issue_comment", s.payload, s.id)).status;
        } catch (e) {
          if (attempt === 3 || !(e instanceof TypeError)) throw e;
          resends += 1;
        }
      }
    };
    // 20 in flight at a time, alternating receivers.
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < all.length) {
          const n = next++;
          statuses.push(await deliver(receivers[n % 2].webhookUrl, all[n]));
        }
      }),
    );
    expect(statuses.filter((s) => s >= 300)).toEqual([]);
    if (resends > 0) console.log(`${resends} send(s) failed at the connection and were sent again under their id`);
    await receivers[0].settle();

    const answers = github.world.comments.filter((c) => c.user.type === "Bot");
    expect(answers).toHaveLength(distinctComments);
    const perIssue = new Map<number, number>();
    for (const c of answers) perIssue.set(c.issue_number, (perIssue.get(c.issue_number) ?? 0) + 1);
    for (let issue = 1; issue <= 40; issue++)
      expect([issue, perIssue.get(issue)]).toEqual([issue, Array.from({ length: fresh }, (_, i) => i).filter((i) => i % 40 === issue - 1).length]);
    // Half were `/agent status` (no session yet), half `/agent help`.
    const statusAnswers = answers.filter((c) => c.body.includes("No Patchgate session for this issue yet")).length;
    expect([statusAnswers, answers.length - statusAnswers]).toEqual([Math.floor(fresh / 2), Math.ceil(fresh / 2)]);
    expect(openai.requests).toHaveLength(0);

    const store = new PostgresSessionStore(db.url);
    try {
      expect(await store.list()).toEqual([]);
      expect(await store.pendingDeliveries()).toEqual([]);
      const ids = await store.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM deliveries");
      expect(ids.rows[0].n).toBe(new Set(all.map((s) => s.id)).size);
      const failed = await store.pool.query("SELECT name, last_error FROM queue_items WHERE state <> 'done'");
      expect(failed.rows).toEqual([]);
    } finally {
      await store.close();
    }
    for (const p of procs) expect(p.lines.filter((l) => / failed: /.test(l))).toEqual([]);
  }, 600_000);
}
