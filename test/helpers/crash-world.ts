import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { branchHead, createBareRepo } from "../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub } from "../fakes/github/github-server.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { Payloads } from "../fakes/github/payloads.js";
import { appSettings } from "../harness/harness.js";
import { sendWebhook, type SentDelivery } from "../fakes/github/webhook-sender.js";
import { STORY_FILES, STORY_PERMISSIONS, storyScript } from "../harness/story.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { StoredEvent } from "../../src/session/events.js";
import { AppProcess } from "./app-process.js";

/**
 * What a crash test needs around a real app process (./app-process.ts): the fake GitHub and model in
 * this process, the story's repository, settings for one SQLite file that each new process reopens,
 * and a way to hold GitHub's answer to a call so the process can be killed while it waits.
 */
const SECRET = "webhook-secret-for-crash-tests";

export class CrashWorld {
  app!: AppProcess;
  private constructor(
    private readonly root: string,
    /** The repository's bare remote, where pushed branches land. */
    readonly bare: string,
    readonly github: FakeGitHub,
    readonly openai: FakeOpenAIServer,
    readonly payloads: Payloads,
    readonly settings: Record<string, unknown>,
  ) {}

  /** The story's repository and script, or others (`files` over the story's); `receipts`: every process signs with one key. */
  static async create(opts: { files?: Record<string, string>; script?: FakeStep[]; receipts?: boolean } = {}): Promise<CrashWorld> {
    const root = mkdtempSync(join(tmpdir(), "pg-crash-"));
    const files = { ...STORY_FILES, ...opts.files };
    const bare = createBareRepo(join(root, "remote"), "octo-org", "calculator", files);
    const github = await startFakeGitHub({ owner: "octo-org", repo: "calculator", gitRoot: join(root, "remote") });
    for (const [login, role] of Object.entries(STORY_PERMISSIONS)) github.world.permissions.set(login, role);
    github.world.files.set(".github/patchgate.yml", files[".github/patchgate.yml"]);
    const openai = await startFakeOpenAI(opts.script ?? storyScript());
    const payloads = new Payloads(github.world);
    payloads.headSha = (branch) => branchHead(bare, branch) ?? "0".repeat(40);
    const settings = {
      ...appSettings(github, root),
      secret: SECRET,
      openaiBaseURL: openai.baseURL,
      apiKey: "sk-test-crash-key-0123456789",
      secrets: [SECRET],
      ...(opts.receipts ? { receiptsDataDir: join(root, "receipts-data") } : {}),
    };
    const world = new CrashWorld(root, bare, github, openai, payloads, settings);
    await world.start();
    return world;
  }

  /** A new app process on the same SQLite file. */
  async start(): Promise<void> {
    this.app = await AppProcess.start(this.settings);
  }

  send(event: string, payload: unknown, id?: string): Promise<SentDelivery> {
    return sendWebhook(this.app.webhookUrl, SECRET, event, payload, id);
  }

  done(id: string): Promise<void> {
    return this.app.logged((l) => l === `delivery ${id} done`);
  }

  /** The next `method` call under `pathPrefix` waits; `reached` resolves when the app makes it. */
  holdNext(method: string, pathPrefix: string): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    let reached!: () => void;
    const r = new Promise<void>((resolve) => (reached = resolve));
    this.github.world.holdNext.push({ method, pathPrefix, reached, until: new Promise<void>((resolve) => (release = resolve)) });
    return { reached: r, release };
  }

  /** The (only) session's ledger, read from the file as a new process would. */
  async events(): Promise<StoredEvent[]> {
    const store = SqliteSessionStore.open(this.settings.dbFile as string);
    try {
      const [s] = await store.list();
      return await store.load(s.id);
    } finally {
      await store.close();
    }
  }

  async close(): Promise<void> {
    await this.app.stop();
    await this.openai.close();
    await this.github.close();
    rmSync(this.root, { recursive: true, force: true });
  }
}
