import { execFileSync } from "node:child_process";
import { readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBareRepo, readBranch } from "../../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../../fakes/github/github-server.js";
import { Payloads } from "../../fakes/github/payloads.js";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../harness/harness.js";
import { ISSUE, STORY_FILES, STORY_PERMISSIONS, storyScript } from "../../harness/story.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { Ledger } from "../../../src/store/ledger.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../../fakes/chat/server.js";
import { type FakeStep } from "../../fakes/chat/turns.js";
import { AppProcess } from "../../helpers/app-process.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { sandboxFileAppears } from "../../helpers/sandbox-file-appears.js";

const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";
// Holds while `.git/pg-hold` exists in the clone, after leaving a file behind: a test run to be killed in.
// The file's name is this file's own: the run is seen holding through its sandbox (its writes reach the
// clone only when it ends), and other tests' sandboxes may hold a `.partial-output` of theirs.
const PARTIAL = `.partial-output-app-crash-${process.pid}`;
const HOLDING_TESTS = `if [ -e .git/pg-hold ]; then echo partial > ${PARTIAL}; exec sleep 600; fi\n${STORY_FILES["test.sh"]}`;

describe.each([
  ["while the tests run", "tests"],
  ["while it waits for the model", "model"],
] as const)("the app is killed with SIGKILL %s; a new process resumes the session at boot", (_name, where) => {
  let root: string;
  let github: FakeGitHub;
  let openai: FakeOpenAIServer;
  let bare: string;
  let app: AppProcess | undefined;
  let settings: Record<string, unknown>;
  const workspaces = () => join(root, "data", "workspaces");
  const clone = () => join(workspaces(), readdirSync(workspaces())[0]);

  beforeAll(async () => {
    root = tempDir("pg-app-crash-");
    bare = createBareRepo(join(root, "remote"), "octo-org", "calculator", { ...STORY_FILES, "test.sh": HOLDING_TESTS });
    github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    github.world.files.set(".github/patchgate.yml", STORY_FILES[".github/patchgate.yml"]);
    const [read, plan, edit, tests, finish] = storyScript();
    const script: FakeStep[] =
      where === "tests"
        ? [read, plan, edit, () => (writeFileSync(join(clone(), ".git", "pg-hold"), ""), tests as Exclude<FakeStep, (...args: never[]) => unknown>), finish]
        : [read, plan, edit, { hold: true }, tests, finish];
    openai = await startFakeOpenAI(script);
    settings = { ...appSettings(github, root), openaiBaseURL: openai.baseURL, apiKey: HARNESS_API_KEY };
  });
  afterAll(async () => {
    await app?.stop();
    await openai.close();
    await github.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("it finishes: one result commit with only the fix, the PR ready, and the provider saw no violation", async () => {
    app = await AppProcess.start(settings);
    const url = () => app!.webhookUrl;
    const payloads = new Payloads(github.world);
    payloads.headSha = (branch) => readBranch(bare, branch)?.sha ?? "0".repeat(40);
    const send = async (event: string, payload: unknown) => expect((await sendWebhook(url(), SECRET, event, payload)).status).toBeLessThan(300);

    await send("issue_comment", payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    expect(await app.settle()).toBe("errors=0");
    const pr = github.world.pulls[0];
    await send("pull_request_review", payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
    expect(await app.settle()).toBe("errors=0");
    await send("issue_comment", payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }));
    if (where === "tests") await sandboxFileAppears(PARTIAL);
    else await openai.held();
    await app.kill9();
    if (where === "tests") unlinkSync(join(clone(), ".git", "pg-hold"));

    app = await AppProcess.start(settings);
    expect(await app.settle()).toBe("errors=0");
    expect(app.lines.join("\n")).toContain("was executing when the app stopped → queued to resume");
    await app.stop();

    const store = SqliteSessionStore.open(join(root, "data", "patchgate.sqlite"));
    try {
      const [summary] = await store.list();
      const ledger = await Ledger.open(store, summary.id);
      expect(ledger.state.phase).toBe("done");
      const runs = ledger.history.filter((e) => e.type === "tool_result" && e.tool === "run_tests");
      expect(runs).toHaveLength(1);
      // Spend counts each recorded call once: the call the kill cut off (sent, never recorded) counts
      // nothing, the resume's call once, so the store's sum is the ledger's whatever the crash.
      const calls = ledger.history.filter((e) => e.type === "llm_called");
      const tokens = calls.reduce((n, e) => n + (e.type === "llm_called" ? e.usage.promptTokens + e.usage.completionTokens : 0), 0);
      expect(await store.spendSince({ installationId: 77 }, "1970-01-01T00:00:00.000Z")).toEqual({
        usd: 0,
        tokens,
        calls: calls.length,
        unpricedCalls: calls.length,
      });
      expect(openai.requests).toHaveLength(calls.length + (where === "model" ? 1 : 0));
    } finally {
      await store.close();
    }
    const head = readBranch(bare, "patchgate/issue-1")!;
    expect(head.files["src/add.js"]).toBe(FIXED);
    expect(Object.keys(head.files)).not.toContain(PARTIAL);
    // Two commits on the branch: the plan's (no file change) and exactly one with the fix.
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
    const commits = git("rev-list", "main..patchgate/issue-1").split("\n");
    expect(commits.map((c) => git("diff-tree", "--no-commit-id", "--name-only", "-r", c))).toEqual(["src/add.js", ""]);
    expect(github.world.pulls).toHaveLength(1);
    expect(github.world.pulls[0].draft).toBe(false);
    expect(openai.violations).toEqual([]);
    expect(openai.remaining()).toBe(0);
  }, 180_000);
});
