/**
 * One process of the RSS figures (bench/rss.ts starts it): a Probot app serving webhooks on
 * loopback, then idle. `bare`: an app that does nothing. `patchgate`: the real app as `npm start`
 * runs it (compiled JavaScript, configured from the environment), then 10 sessions run in this
 * process until they park for plan approval, each after 14 read-only steps. Both sides run through
 * tsx (this file is TypeScript), which costs them the same. Prints one JSON line of RSS in bytes.
 *
 * The app loads what runs sessions at its first session: `warm` is taken after one session has
 * parked, so the 10 parked after it show what a parked session costs, not the one-time code.
 */

import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createNodeMiddleware, createProbot, type ApplicationFunction } from "probot";
import { makeCodeRepo, ZeroLatencyModel } from "./fixtures.js";

const PARKED = 10;

async function settledRss(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc");
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
    gc();
  }
  return process.memoryUsage().rss;
}

async function serve(appFn: ApplicationFunction): Promise<() => Promise<void>> {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const env = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: "rss-secret", LOG_LEVEL: "fatal" } as NodeJS.ProcessEnv;
  const middleware = await createNodeMiddleware(appFn, { probot: createProbot({ env }), webhooksPath: "/api/github/webhooks" });
  const server = createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return () => new Promise((r) => server.close(() => r()));
}

/** A module of the compiled app (the build rss.ts made), typed as its source. */
async function built<T>(rel: string): Promise<T> {
  const dir = process.env.PATCHGATE_BENCH_BUILD;
  if (!dir) throw new Error("PATCHGATE_BENCH_BUILD (the compiled app's directory) is not set");
  return (await import(pathToFileURL(path.join(dir, rel)).href)) as T;
}

async function parkSessions(root: string, count: number, first: number): Promise<void> {
  const { createSession, prepareWorkspace } = await built<typeof import("../src/agent/session-service.js")>("agent/session-service.js");
  const { resumeSession } = await built<typeof import("../src/agent/run-session.js")>("agent/run-session.js");
  const { parseRepoConfig } = await built<typeof import("../src/config/load-repo-config.js")>("config/load-repo-config.js");
  const { SqliteSessionStore } = await built<typeof import("../src/store/sqlite-store.js")>("store/sqlite-store.js");
  const source = path.join(root, "source");
  if (first === 0) {
    mkdirSync(source);
    makeCodeRepo(source);
  }
  const cfg = parseRepoConfig('test: "true"\n');
  if (!cfg.ok) throw new Error(cfg.error.message);
  const store = SqliteSessionStore.open(path.join(root, "sessions.sqlite"));
  for (let n = first; n < first + count; n++) {
    // 14 read-only steps (and a compaction, which the 2–16 KB files bring on), then submit_plan.
    const llm = new ZeroLatencyModel(14);
    const ledger = await createSession(store, {
      task: { title: `task ${n}`, body: "fix it", source: { kind: "cli", repo: source } },
      model: "scripted",
      sessionId: `parked-${n}`,
    });
    const workspace = await prepareWorkspace(ledger, { source, dir: path.join(root, "ws", String(n)) });
    const outcome = await resumeSession(ledger, { llm, sandbox: null, workspace, repoConfig: cfg.config });
    if (outcome.kind !== "parked") throw new Error(`session ${n} ended ${JSON.stringify(outcome)}, expected parked: ${JSON.stringify(ledger.history.at(-1))}`);
  }
  await store.close();
}

const mode = process.argv[2];
const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-rss-"));
try {
  if (mode === "bare") {
    const close = await serve((app) => void app.on("issue_comment.created", async () => {}));
    console.log(JSON.stringify({ idle: await settledRss() }));
    await close();
  } else if (mode === "patchgate") {
    Object.assign(process.env, { PATCHGATE_DATA_DIR: path.join(root, "data"), PATCHGATE_RECONCILE_MINUTES: "0" });
    const app = (await built<typeof import("../src/index.js")>("index.js")).default;
    const close = await serve(app);
    const idle = await settledRss();
    await parkSessions(root, 1, 0);
    const warm = await settledRss();
    await parkSessions(root, PARKED, 1);
    console.log(JSON.stringify({ idle, warm, parked: await settledRss() }));
    await close();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
// The app's timers and the store stay open; the measurement is done.
process.exit(0);
