/**
 * fairness: 1,000 sessions queued on the durable queue (PostgreSQL, src/queue/pg) over 20
 * installations, one of them asking for half and queueing first; one worker with 10 slots drains
 * them, each job holding its slot a moment. The figure is the lowest Jain's index of starts per
 * installation (against each one's max-min fair share) over every window of 100 starts.
 * Run alone: `npx tsx bench/fairness.ts`.
 */
import { pathToFileURL } from "node:url";
import { DurableQueue } from "../src/queue/pg/durable-queue.js";
import { PostgresSessionStore } from "../src/store/pg-store.js";
import { notMeasured, spread, type Figures } from "./figure.js";
import { windowIndices } from "./fairness-index.js";
import { startCluster } from "./pg-cluster.js";

const SESSIONS = 1000;
const INSTALLATIONS = 20;
const WINDOW = 100;
const SLOTS = 10;
/** Long against one pick (a few queries), as a session's job is: a job shorter than a pick would measure the picking, not the order. */
const HOLD_MS = 300;
const GOAL = 0.95;

/** The installations' queued sessions: the first asks for half, the others share the rest. */
export function queuedSessions(): { installation: string; key: string }[] {
  const out: { installation: string; key: string }[] = [];
  for (let i = 0; i < SESSIONS / 2; i++) out.push({ installation: "inst-0", key: `big/repo#${i}` });
  const others = INSTALLATIONS - 1;
  for (let i = 0; i < SESSIONS / 2; i++) {
    const inst = `inst-${1 + (i % others)}`;
    out.push({ installation: inst, key: `${inst}/repo#${i}` });
  }
  return out;
}

export async function benchFairness(): Promise<Figures> {
  const cluster = await startCluster();
  if ("reason" in cluster) return { fairness: notMeasured(cluster.reason, GOAL, "higher") };
  const store = new PostgresSessionStore(cluster.url);
  const queues: DurableQueue[] = [];
  try {
    await store.ready();
    const jobs = queuedSessions();
    const receiver = await DurableQueue.start({ url: cluster.url, pool: store.pool, slots: 0 });
    queues.push(receiver);
    for (const j of jobs)
      receiver.enqueue({ key: j.key, name: j.key, group: j.installation, spec: { kind: "bench", installation: j.installation }, run: () => Promise.resolve() });
    await receiver.flushed();
    const starts: string[] = [];
    let finished!: () => void;
    const allStarted = new Promise<void>((r) => (finished = r));
    const worker = await DurableQueue.start({
      url: cluster.url,
      pool: store.pool,
      slots: SLOTS,
      sweepMs: 50,
      runner: async (spec) => {
        starts.push(String(spec.installation));
        if (starts.length === SESSIONS) finished();
        await new Promise((r) => setTimeout(r, HOLD_MS));
      },
    });
    queues.push(worker);
    await allStarted;
    const queued = new Map<string, number>();
    for (const j of jobs) queued.set(j.installation, (queued.get(j.installation) ?? 0) + 1);
    const indices = windowIndices(starts, queued, WINDOW);
    const worst = Math.min(...indices);
    const bigShare = indices.map((_, w) => starts.slice(w * WINDOW, (w + 1) * WINDOW).filter((i) => i === "inst-0").length);
    console.error(
      `fairness: index per window of ${WINDOW} starts: ${indices.map((x) => x.toFixed(3)).join(", ")}; the big installation's starts in each: ${bigShare.join(", ")}`,
    );
    return {
      fairness: {
        measured: `lowest index ${worst.toFixed(3)} over ${indices.length} windows of ${WINDOW} starts`,
        baseline: "1 = every installation started its max-min fair share",
        ratio: worst,
        goal: GOAL,
        better: "higher",
        ...spread(indices),
        note: `${SESSIONS} sessions over ${INSTALLATIONS} installations, one asking for half and queued first; one worker, ${SLOTS} slots, each job ${HOLD_MS} ms`,
      },
    };
  } finally {
    for (const q of queues.reverse()) await q.close();
    await store.close();
    cluster.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchFairness(), null, 2));
}
