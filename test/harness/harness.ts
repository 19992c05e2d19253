import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import type { LLMClient } from "../../src/agent/llm/types.js";
import type { McpConfig } from "../../src/mcp/config.js";
import { startApp, type AppInstance, type AppSettings } from "./app-instance.js";
import { branchHead, createBareRepo } from "../fakes/git/bare-repo.js";
import { startFakeGitHub, type FakeGitHub, type RequestValidator } from "../fakes/github/github-server.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { type FakeStep } from "../fakes/chat/turns.js";
import { Payloads } from "../fakes/github/payloads.js";
import { sendWebhook, type SentDelivery } from "../fakes/github/webhook-sender.js";

/**
 * The whole world on loopback: a fake GitHub (REST + GraphQL + git over HTTP from a bare repo), a
 * fake OpenAI-compatible model answering from a script, and Patchgate itself receiving signed
 * deliveries over HTTP. Shared by the end-to-end tests, `npm run demo` and the benchmark.
 */
export interface HarnessOptions {
  script: FakeStep[];
  files: Record<string, string>;
  /** login → role (`admin`, `maintain`, `write`, `triage`, `read`). */
  permissions: Record<string, string>;
  /** Replace the model client (tests that need a model which hangs until aborted). */
  llm?: () => LLMClient;
  checkRunThrottleMs?: number;
  /** How long a lane waits for an aborted job (tests of other things wait as long as it takes). */
  abandonAfterAbortMs?: number;
  log?: (line: string) => void;
  /** Checks every REST request the fake GitHub receives (tests pass the OpenAPI validator). */
  validate?: RequestValidator;
  /** The operator's MCP servers, as PATCHGATE_MCP_CONFIG would give them. */
  mcp?: McpConfig;
  /** The host as toolchain resolution sees it, operator toolchains (tests build a temporary HOME). */
  sandboxExtras?: AppSettings["sandboxExtras"];
  privateDestinations?: AppSettings["privateDestinations"];
  /** Turns the delivery reconciler on, on this clock. */
  reconcile?: { firstAfterMs: number; everyMs: number };
  housekeeping?: AppSettings["housekeeping"];
  diskGuard?: AppSettings["diskGuard"];
  receipts?: AppSettings["receipts"];
  budgets?: AppSettings["budgets"];
  schedules?: AppSettings["schedules"];
  metrics?: AppSettings["metrics"];
  healthToken?: string;
}

export interface Harness {
  github: FakeGitHub;
  openai: FakeOpenAIServer;
  payloads: Payloads;
  bare: string;
  app: AppInstance;
  timeline: string[];
  /** Sends a signed delivery; `id` lets a test redeliver the same one. */
  send(event: string, payload: unknown, id?: string): Promise<SentDelivery>;
  /** Resolves when every job the deliveries caused has finished. */
  settle(): Promise<void>;
  /** Resolves with the first timeline line, logged from now on, that `match` accepts. */
  logged(match: (line: string) => boolean): Promise<string>;
  /** Closes the app and its store object, then starts a new one on the same SQLite file. */
  restart(): Promise<void>;
  /**
   * Kills the app mid-work (nothing in flight is awaited), runs `whileDown` (e.g. lose the disk, or
   * have GitHub try a delivery), then starts a new app on the same SQLite file.
   */
  crash(whileDown?: () => unknown): Promise<void>;
  close(): Promise<void>;
}

const OWNER = "octo-org";
const REPO = "calculator";
export const SECRET = "webhook-secret-for-tests";
export const HARNESS_API_KEY = "sk-test-harness-key-0123456789";

/**
 * The app's private key, made once per process: a GitHub App has one key for all its workers, and a
 * 2048-bit RSA key costs a noticeable slice of CPU to make, for every app a test starts.
 */
let key: string | undefined;
function appKey(): string {
  key ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return key;
}

/**
 * What an app instance on the fake GitHub starts with, besides its model client and log: the app
 * key, the store and workspaces under `root/data`. Also used to start the app as a process.
 */
export function appSettings(github: FakeGitHub, root: string, checkRunThrottleMs = 3_600_000): Omit<AppSettings, "llm" | "log"> {
  mkdirSync(join(root, "data"), { recursive: true });
  return {
    appId: github.world.app.id,
    privateKey: appKey(),
    secret: SECRET,
    gheHost: github.host,
    dbFile: join(root, "data", "patchgate.sqlite"),
    workspacesDir: join(root, "data", "workspaces"),
    model: "fake-model",
    secrets: [HARNESS_API_KEY, SECRET],
    checkRunThrottleMs,
  };
}

export async function startHarness(o: HarnessOptions): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), "pg-harness-"));
  const gitRoot = join(root, "remote");
  const bare = createBareRepo(gitRoot, OWNER, REPO, o.files);
  const github = await startFakeGitHub({ owner: OWNER, repo: REPO, gitRoot, validate: o.validate });
  for (const [login, role] of Object.entries(o.permissions)) github.world.permissions.set(login, role);
  const openai = await startFakeOpenAI(o.script);
  const payloads = new Payloads(github.world);
  payloads.headSha = (branch) => branchHead(bare, branch) ?? "0".repeat(40);
  const timeline: string[] = [];
  const waiting = new Set<(line: string) => void>();
  const log = (line: string) => {
    timeline.push(line);
    o.log?.(line);
    for (const w of waiting) w(line);
  };
  const settings = {
    ...appSettings(github, root, o.checkRunThrottleMs),
    abandonAfterAbortMs: o.abandonAfterAbortMs,
    llm: o.llm ?? (() => createOpenAIClient({ apiKey: HARNESS_API_KEY, baseURL: openai.baseURL, model: "fake-model" })),
    mcp: o.mcp ?? null,
    sandboxExtras: o.sandboxExtras,
    privateDestinations: o.privateDestinations,
    reconcile: o.reconcile,
    housekeeping: o.housekeeping,
    diskGuard: o.diskGuard,
    receipts: o.receipts,
    budgets: o.budgets,
    schedules: o.schedules,
    metrics: o.metrics,
    healthToken: o.healthToken,
    log,
  };
  let app = await startApp(settings);
  // GitHub's own deliveries (world.hooks) go wherever the app listens now; nowhere while it is down.
  let up = true;
  github.world.hooks.secret = SECRET;
  github.world.hooks.target = () => (up ? app.webhookUrl : null);
  const h: Harness = {
    github,
    openai,
    payloads,
    bare,
    get app() {
      return app;
    },
    timeline,
    send: (event, payload, id) => sendWebhook(app.webhookUrl, SECRET, event, payload, id),
    settle: () => app.deps.queue.idle(),
    logged: (match) =>
      new Promise<string>((resolve) => {
        const w = (line: string) => {
          if (!match(line)) return;
          waiting.delete(w);
          resolve(line);
        };
        waiting.add(w);
      }),
    restart: async () => {
      await app.close();
      log("— app restarted (new Probot, new store object, same SQLite file) —");
      app = await startApp(settings);
    },
    crash: async (whileDown) => {
      up = false;
      await app.kill();
      await whileDown?.();
      log("— app killed mid-work; a new app starts on the same SQLite file —");
      app = await startApp(settings);
      up = true;
    },
    close: async () => {
      await app.close();
      await openai.close();
      await github.close();
      rmSync(root, { recursive: true, force: true });
      // Every test on this harness fails if the app sent a request a real provider would refuse.
      if (openai.violations.length > 0)
        throw new Error(`the fake provider refused requests: ${openai.violations.map((v) => `${v.rule}: ${v.message}`).join("; ")}`);
    },
  };
  return h;
}
