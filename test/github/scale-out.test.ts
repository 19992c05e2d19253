import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { createBareRepo, readBranch } from "../../src/demo/fakes/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../src/demo/fakes/github-server.js";
import { Payloads } from "../../src/demo/fakes/payloads.js";
import { sendWebhook } from "../../src/demo/fakes/webhook-sender.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../src/demo/harness.js";
import { ISSUE, STORY_FILES, STORY_PERMISSIONS, storyScript } from "../../src/demo/story.js";
import { Ledger } from "../../src/store/ledger.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { startFakeOpenAI, type FakeOpenAIServer, type FakeStep } from "../fakes/openai-server.js";
import { AppProcess } from "../helpers/app-process.js";
import { tempDir } from "../helpers/git-fixture.js";
import { freshDatabase, postgresForTests, type TestDatabase } from "../helpers/postgres.js";

/**
 * Scale-out with real processes on a real PostgreSQL: one receiver (`serve`) and two workers, each
 * with a disk of its own. The story runs to its end while the worker that holds the session is
 * killed with SIGKILL as it waits for the model, or in the middle of the test run; the other worker
 * takes the lane once the lease runs out, rebuilds the workspace from the ledger, and finishes — one PR, one completed check
 * run per head sha, no comment twice, the model's conversation valid.
 */
const cluster = postgresForTests("the scale-out test");
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
// Holds while `.git/pg-hold` exists in the clone, after leaving a file behind: a test run to be killed in.
const HOLDING_TESTS = `if [ -e .git/pg-hold ]; then echo partial > .partial-output; exec sleep 600; fi\n${STORY_FILES["test.sh"]}`;

/** Resolves when `name` exists in `dir` (watched, not polled). */
function appears(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => existsSync(join(dir, name)) && (watcher.close(), resolve(), true);
    const watcher = watch(dir, done);
    done();
  });
}

if (!cluster) {
  test.skip("scale-out with real processes (needs PostgreSQL)", () => undefined);
} else describe.each([
  ["while the model answers", "model"],
  ["while the tests run", "tests"],
] as const)("a worker killed with SIGKILL %s", (point, where) => {
  let root: string;
  let db: TestDatabase;
  let github: FakeGitHub;
  let openai: FakeOpenAIServer;
  let bare: string;
  const procs: AppProcess[] = [];
  /** The session's clone on the worker that runs it (each worker has a disk of its own). */
  const clone = (): string => {
    for (const w of ["worker-a", "worker-b"]) {
      const dir = join(root, w, "workspaces");
      if (existsSync(dir) && readdirSync(dir).length > 0) return join(dir, readdirSync(dir)[0]);
    }
    throw new Error("no clone on any worker");
  };

  beforeAll(async () => {
    root = tempDir("pg-scale-out-");
    db = await freshDatabase(cluster);
    bare = createBareRepo(join(root, "remote"), "octo-org", "calculator", { ...STORY_FILES, "test.sh": HOLDING_TESTS });
    github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    const [read, plan, edit, tests, finish] = storyScript();
    const script: FakeStep[] =
      where === "tests"
        ? [read, plan, edit, () => (writeFileSync(join(clone(), ".git", "pg-hold"), ""), tests as Exclude<FakeStep, Function>), finish]
        : [read, plan, edit, { hold: true }, tests, finish];
    openai = await startFakeOpenAI(script);
  });
  afterAll(async () => {
    for (const p of procs) await p.stop();
    await openai.close();
    await github.close();
    await db.drop();
    rmSync(root, { recursive: true, force: true });
  });

  const settings = (role: "serve" | "worker", name: string) => ({
    ...appSettings(github, root),
    workspacesDir: join(root, name, "workspaces"),
    openaiBaseURL: openai.baseURL,
    apiKey: HARNESS_API_KEY,
    scaleOut: { databaseUrl: db.url, role, owner: name, slots: 1, leaseMs: 1_500, heartbeatMs: 250, sweepMs: 100 },
  });

  async function holder(): Promise<string> {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ owner: string }>("SELECT owner FROM queue_lanes WHERE owner IS NOT NULL AND lane NOT LIKE 'control:%'");
      return rows.map((r) => r.owner).join(",");
    } finally {
      await c.end();
    }
  }

  test("the other worker finishes the session exactly once", async () => {
    const receiver = await AppProcess.start(settings("serve", "receiver"));
    procs.push(receiver);
    const workers = new Map<string, AppProcess>();
    for (const name of ["worker-a", "worker-b"]) {
      const w = await AppProcess.start(settings("worker", name));
      procs.push(w);
      workers.set(name, w);
    }
    const payloads = new Payloads(github.world);
    payloads.headSha = (branch) => readBranch(bare, branch)?.sha ?? "0".repeat(40);
    const send = async (event: string, payload: unknown) => expect((await sendWebhook(receiver.webhookUrl, SECRET, event, payload)).status).toBeLessThan(300);

    await send("issue_comment", payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await receiver.settle();
    const pr = github.world.pulls[0];
    expect(pr).toBeDefined();
    await send("pull_request_review", payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    await receiver.settle();
    await send("issue_comment", payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    if (where === "tests") await appears(clone(), ".partial-output");
    else await openai.held();
    const victim = await holder();
    expect(["worker-a", "worker-b"]).toContain(victim);
    await workers.get(victim)!.kill9();
    const survivor = [...workers.keys()].find((n) => n !== victim)!;

    await receiver.settle();
    const lines = [...receiver.lines, ...workers.get(survivor)!.lines];
    expect(lines.filter((l) => / failed: /.test(l))).toEqual([]);
    expect(workers.get(survivor)!.lines.join("\n")).toContain("its worker died");

    const store = new PostgresSessionStore(db.url);
    try {
      const [summary] = await store.list();
      const ledger = await Ledger.open(store, summary.id);
      expect(ledger.state.phase).toBe("done");
      // Ended exactly once: one accepted finish, one publication, no failure or cancellation.
      const count = (t: string) => ledger.history.filter((e) => e.type === t).length;
      expect([count("finish_accepted"), count("published"), count("session_failed"), count("session_cancelled")]).toEqual([1, 1, 0, 0]);
    } finally {
      await store.close();
    }
    expect(readBranch(bare, "patchgate/issue-1")!.files["src/add.js"]).toBe(FIXED);
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
    const commits = git("rev-list", "main..patchgate/issue-1").split("\n");
    expect(commits.map((c) => git("diff-tree", "--no-commit-id", "--name-only", "-r", c))).toEqual(["src/add.js", ""]);
    expect(github.world.pulls).toHaveLength(1);
    expect(github.world.pulls[0].draft).toBe(false);
    const completed = github.world.checkRuns.filter((r) => r.status === "completed");
    expect(new Set(completed.map((r) => r.head_sha)).size).toBe(completed.length);
    const bodies = github.world.comments.filter((c) => c.user.type === "Bot").map((c) => c.body);
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(openai.violations).toEqual([]);
    expect(openai.remaining()).toBe(0);
    expect(Object.keys(readBranch(bare, "patchgate/issue-1")!.files)).not.toContain(".partial-output");
    if (where === "tests") expect(clone()).toContain(survivor); // the victim's disk is gone with it: rebuilt here
    console.log(`scale-out: killed ${victim} ${point} → ${survivor} finished the session (done, 1 PR, ${completed.length} completed check run(s))`);
  }, 240_000);
});
