/**
 * Webhook figure: signed deliveries at a fixed rate on loopback, time from send to 2xx. Patchgate
 * answers only after the delivery id is durably in SQLite (synchronous=FULL) and the work queued;
 * beside it, a bare Probot app that does nothing. The figure is Patchgate's p99 over the floor this
 * disk allows (bare p99 + one fsync + the hop to the writer thread: ./webhook-floor.ts); bare Probot's
 * p99 is printed beside it.
 */
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createNodeMiddleware, createProbot, type ApplicationFunction } from "probot";
import { GitHubWorld } from "../test/fakes/github/github-state.js";
import { Payloads } from "../test/fakes/github/payloads.js";
import { sendWebhook } from "../test/fakes/github/webhook-sender.js";
import { HoldingQueue, intakeOnlyApp } from "../test/helpers/intake-only-app.js";
import { SqliteSessionStore } from "../src/store/sqlite-store.js";
import { ms, spread, type Figures } from "./figure.js";
import { fsyncSamples, hopSamples } from "./webhook-floor.js";

const RATE_PER_SECOND = 200;
const DELIVERIES = 1000;
/** The two apps take turns, so a noisy neighbour (disk, CPU) lands on both sides alike. */
const ROUNDS = 5;
const WARMUP = 100;
const SECRET = "bench-webhook-secret";
const GOAL = 1.2;

async function serve(appFn: ApplicationFunction, privateKey: string): Promise<{ url: string; server: Server }> {
  const env = { APP_ID: "1", PRIVATE_KEY: privateKey, WEBHOOK_SECRET: SECRET, LOG_LEVEL: "fatal" } as NodeJS.ProcessEnv;
  const middleware = await createNodeMiddleware(appFn, { probot: createProbot({ env }), webhooksPath: "/api/github/webhooks" });
  const server = createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`, server };
}

/** Open loop: delivery i is sent at start + i/rate whether or not earlier ones were answered. */
async function fire(url: string, payload: (i: number) => unknown, n: number): Promise<number[]> {
  const start = performance.now();
  const pending: Promise<number>[] = [];
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / RATE_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      sendWebhook(url, SECRET, "issue_comment", payload(i), randomUUID()).then((r) => {
        if (r.status < 200 || r.status > 299) throw new Error(`delivery answered ${r.status}`);
        return r.ms;
      }),
    );
  }
  return Promise.all(pending);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function benchWebhook(): Promise<Figures> {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const dir = mkdtempSync(join(tmpdir(), "pg-bench-webhook-"));
  const store = SqliteSessionStore.open(join(dir, "patchgate.sqlite"));
  const queue = new HoldingQueue();
  const payloads = new Payloads(new GitHubWorld("octo-org", "calculator", "http://github.invalid", { id: 1, slug: "patchgate", botId: 2 }));
  // Each delivery is a real command on its own issue: parsed, deduplicated, looked up, queued.
  const payload = (i: number) => payloads.comment({ number: i + 1, body: "/agent status", by: "maintainer" });
  const bare = await serve((app) => app.on("issue_comment.created", async () => {}), privateKey);
  const app = (s: SqliteSessionStore) => intakeOnlyApp(s, queue, dir);
  const patchgate = await serve(app(store), privateKey);
  // The same app on an in-memory database: what the webhook path costs without the fsync.
  const volatileStore = SqliteSessionStore.open(":memory:");
  const volatile = await serve(app(volatileStore), privateKey);
  try {
    // Each app is warmed, the in-memory one too: its first round would otherwise carry its cold start.
    for (const side of [bare, patchgate, volatile]) await fire(side.url, payload, WARMUP);
    const b: number[] = [];
    const p: number[] = [];
    const v: number[] = [];
    const fsyncs: number[] = [];
    const hops: number[] = [];
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rb = await fire(bare.url, payload, DELIVERIES / ROUNDS);
      const rp = await fire(patchgate.url, payload, DELIVERIES / ROUNDS);
      b.push(...rb);
      p.push(...rp);
      v.push(...(await fire(volatile.url, payload, DELIVERIES / ROUNDS)));
      const rf = await fsyncSamples(dir, DELIVERIES / ROUNDS, 1000 / RATE_PER_SECOND);
      const rh = await hopSamples(DELIVERIES / ROUNDS, 1000 / RATE_PER_SECOND);
      fsyncs.push(...rf);
      hops.push(...rh);
      const p99 = (xs: number[]) =>
        pct(
          [...xs].sort((x, y) => x - y),
          99,
        );
      rounds.push(p99(rp) / (p99(rb) + p99(rf) + p99(rh)));
    }
    for (const xs of [b, p, v, fsyncs, hops]) xs.sort((x, y) => x - y);
    if (queue.jobs.length !== 2 * WARMUP + 2 * DELIVERIES) throw new Error(`queued ${queue.jobs.length} jobs, expected ${2 * WARMUP + 2 * DELIVERIES}`);
    const floor = pct(b, 99) + pct(fsyncs, 99) + pct(hops, 99);
    // Judged against the floor: the durable insert's fsync and the hop to its thread stay (power-loss safety).
    const ratio = pct(p, 99) / floor;
    console.error(
      `webhook: in-memory SQLite (no fsync) p50 ${ms(pct(v, 50))} p99 ${ms(pct(v, 99))}, p99 ratio to bare ${(pct(v, 99) / pct(b, 99)).toFixed(2)}`,
    );
    console.error(
      `webhook: this disk's fsync of one delivery's WAL frames p50 ${ms(pct(fsyncs, 50))} p99 ${ms(pct(fsyncs, 99))} max ${ms(fsyncs.at(-1)!)}; ` +
        `thread hop p50 ${ms(pct(hops, 50))} p99 ${ms(pct(hops, 99))}; floor (bare p99 + fsync p99 + hop p99) ${ms(floor)}, ` +
        `Patchgate p99 / floor ${(pct(p, 99) / floor).toFixed(2)}, floor / bare p99 ${(floor / pct(b, 99)).toFixed(2)}`,
    );
    return {
      webhook_p99: {
        measured: `Patchgate p99 ${ms(pct(p, 99))} (p50 ${ms(pct(p, 50))}), ${(pct(p, 99) / pct(b, 99)).toFixed(2)}× bare Probot's`,
        baseline: `bare Probot p99 ${ms(pct(b, 99))} (p50 ${ms(pct(b, 50))}); floor ${ms(floor)} = bare p99 + fsync p99 ${ms(pct(fsyncs, 99))} + thread hop p99 ${ms(pct(hops, 99))} (${(floor / pct(b, 99)).toFixed(2)}× bare)`,
        ratio,
        goal: GOAL,
        ...spread(rounds),
        note: `${DELIVERIES} signed deliveries per app at ${RATE_PER_SECOND}/s, ${ROUNDS} alternating rounds; delivery durable in SQLite (synchronous=FULL); min–max of the per-round p99 over that round's floor; the floor samples, in every round at the same rate, fsync of one delivery's WAL frames on the store's disk and a round trip to a worker thread`,
      },
    };
  } finally {
    await new Promise((r) => bare.server.close(r));
    await new Promise((r) => patchgate.server.close(r));
    await new Promise((r) => volatile.server.close(r));
    await store.close();
    await volatileStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchWebhook(), null, 2));
}
