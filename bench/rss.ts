/**
 * rss_idle and rss_parked_10_mb: resident memory of the real app (compiled, as `npm start` runs it)
 * against a bare Probot app, each in a fresh plain-node process (bench/rss-idle.mjs), pairs
 * interleaved; then, in a process of the app run through tsx (bench/rss-child.ts), what 10 sessions
 * parked for plan approval add. All after a full GC. The idle pair is also taken through tsx, for
 * the note: tsx costs each module it loads (its ~1 MB secretlint bundle alone ~17 MB), which
 * production does not pay.
 * Run alone: `npx tsx bench/rss.ts`.
 */
import { execFile } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { median, spread, type Figures } from "./figure.js";

const PAIRS = 3;
const run = promisify(execFile);
const child = fileURLToPath(new URL("./rss-child.ts", import.meta.url));
const idleChild = fileURLToPath(new URL("./rss-idle.mjs", import.meta.url));
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// Inside node_modules, so that the compiled app resolves its dependencies from there.
const build = fileURLToPath(new URL("../node_modules/.cache/patchgate-bench-build", import.meta.url));

/** The app compiled as `npm start` builds it (tsconfig.build.json), into the bench's own directory. */
async function compile(): Promise<void> {
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  const project = fileURLToPath(new URL("../tsconfig.build.json", import.meta.url));
  await run(process.execPath, [tsc, "-p", project, "--outDir", build], { timeout: 600_000 });
}

async function measure(mode: "bare" | "patchgate", loader: "tsx" | "none"): Promise<{ idle: number; warm?: number; parked?: number }> {
  const env = { ...process.env, PATCHGATE_BENCH_BUILD: build };
  const args = loader === "tsx" ? ["--expose-gc", "--import", "tsx", child, mode] : ["--expose-gc", idleChild, mode];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 1 << 20, timeout: 300_000 });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { idle: number; warm?: number; parked?: number };
}

export async function benchRss(): Promise<Figures> {
  const bare: number[] = [];
  const app: number[] = [];
  const added: number[] = [];
  const warm: number[] = [];
  const tsx = { bare: [] as number[], app: [] as number[] };
  await compile();
  for (let i = 0; i < PAIRS; i++) {
    bare.push((await measure("bare", "none")).idle);
    app.push((await measure("patchgate", "none")).idle);
    tsx.bare.push((await measure("bare", "tsx")).idle);
    const p = await measure("patchgate", "tsx");
    tsx.app.push(p.idle);
    warm.push(p.warm!);
    added.push(p.parked! - p.warm!);
  }
  const range = (xs: number[]) => `${mb(median(xs))} (${mb(Math.min(...xs))}–${mb(Math.max(...xs))})`;
  const addedMb = added.map((b) => b / 1024 / 1024);
  return {
    rss_idle: {
      measured: `Patchgate app idle ${range(app)}`,
      baseline: `bare Probot app idle ${range(bare)}`,
      ratio: median(app) / median(bare),
      goal: 1.2,
      ...spread(app.map((a, i) => a / bare[i]!)),
      note: `${PAIRS} fresh plain-node processes per side, interleaved, RSS after a full GC; the app compiled as npm start runs it; through tsx the same pair is ${mb(median(tsx.app))} vs ${mb(median(tsx.bare))} (${(median(tsx.app) / median(tsx.bare)).toFixed(3)})`,
    },
    rss_parked_10_mb: {
      measured: `+${range(added)} with 10 sessions parked for plan approval`,
      baseline: `the same process after its first parked session (the session runtime loaded), ${range(warm)}`,
      ratio: median(addedMb),
      goal: 20,
      ...spread(addedMb),
      note: "each session: a clone, 14 read-only steps with a compaction, submit_plan; run in the app's process after one such session (the code a session loads is loaded once, not per session), RSS after a full GC",
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchRss(), null, 2));
}
