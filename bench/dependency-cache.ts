/**
 * What the dependency cache saves a session: the setup of a real package with hundreds of
 * dependencies from the npm registry, run the way a session runs it (ensureSetup: the egress proxy,
 * the sandbox, the cache), in a first session and then in a second one on the same repository and
 * lockfile, in one run. Also how the restore's copy compares with hardlinking, which would be faster
 * and is not used (a session writing into a hardlinked file would write into the cache).
 * Run alone: `npx tsx bench/dependency-cache.ts`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createSession, prepareWorkspace } from "../src/agent/session-service.js";
import { sessionExtras, withSession } from "../src/agent/session-sandbox.js";
import { parseRepoConfig } from "../src/config/load-repo-config.js";
import { DependencyStore } from "../src/depcache/dependency-store.js";
import { selectSandbox } from "../src/sandbox/select.js";
import { sessionCacheDir } from "../src/sandbox/session-cache.js";
import type { Sandbox } from "../src/sandbox/types.js";
import { SqliteSessionStore } from "../src/store/sqlite-store.js";
import { ensureSetup } from "../src/runs/test-setup.js";
import { setupContextOf } from "../src/tools/support/run-context.js";
import { median, notMeasured, spread, type Figures } from "./figure.js";

const PACKAGE = "lerna";
const VERSION = "8.1.2";
const SETUP = "npm ci --ignore-scripts --no-audit --no-fund";
const RATIO_GOAL = 0.1;
/**
 * Restores measured, each in a session of its own: one restore is one copy of ~100 MB of small files,
 * whose time is the disk's (it varied 3× between two quiet runs, and so did a plain `cp -a` of the
 * same tree beside it), so the figure is their median. The install is measured once: it takes minutes.
 */
const RESTORES = 3;

const run = (cwd: string, file: string, args: string[]) =>
  execFileSync(file, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 });

/** The fixture repository: one real dependency, its lockfile made by npm (metadata only), the setup command. */
function makeSource(dir: string): number {
  mkdirSync(path.join(dir, ".github"), { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "bench-fixture", version: "1.0.0", private: true, dependencies: { [PACKAGE]: VERSION } }, null, 2) + "\n",
  );
  writeFileSync(path.join(dir, ".gitignore"), "node_modules\n");
  writeFileSync(
    path.join(dir, ".github/patchgate.yml"),
    `setup: ${SETUP}\ntest: "true"\nsandbox:\n  network_for_setup: true\ntimeouts:\n  setup_seconds: 1800\n`,
  );
  run(dir, "npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"]);
  const git = (...args: string[]) => run(dir, "git", ["-c", "core.hooksPath=/dev/null", "-c", "user.name=b", "-c", "user.email=b@b", ...args]);
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
  const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).length - 1;
}

interface SetupTiming {
  wallMs: number;
  commandMs: number;
  outcome: string;
  bytes: number;
}

/** One session up to its setup: a new ledger, clone and session cache, then ensureSetup, timed. */
async function sessionSetup(root: string, source: string, sandbox: Sandbox, deps: DependencyStore, n: number): Promise<SetupTiming> {
  const store = SqliteSessionStore.open(path.join(root, "patchgate.sqlite"));
  try {
    const id = `bench-${n}`;
    const ledger = await createSession(store, { task: { title: "bench", body: "", source: { kind: "cli", repo: source } }, model: "none", sessionId: id });
    const workspace = await prepareWorkspace(ledger, { source, dir: path.join(root, "ws", id) });
    const cacheDir = await sessionCacheDir(path.join(root, "cache"), id);
    const cfg = parseRepoConfig(readFileSync(path.join(workspace.root, ".github/patchgate.yml"), "utf8"));
    if (!cfg.ok) throw new Error(cfg.error.message);
    const ctx = {
      workspace,
      state: ledger.state,
      sandbox: withSession(sandbox, sessionExtras(null, cacheDir)),
      repoConfig: cfg.config,
      dependencyCache: { store: deps, sessionCache: cacheDir },
    };
    const started = performance.now();
    const outcome = await ensureSetup(setupContextOf(ctx));
    const wallMs = performance.now() - started;
    if (!outcome.ran) throw new Error("setup did not run");
    if (outcome.error) throw new Error(`setup failed: ${outcome.error.message}`);
    const c = outcome.event.dependencyCache;
    return { wallMs, commandMs: outcome.event.durationMs, outcome: c ? `${c.outcome}${c.reason ? ` (${c.reason})` : ""}` : "no cache", bytes: c?.bytes ?? 0 };
  } finally {
    await store.close();
  }
}

function timedCopy(args: string[], from: string, to: string): number {
  const t = performance.now();
  execFileSync("cp", [...args, from, to]);
  return performance.now() - t;
}

/** How much written data the kernel has yet to write back: a restore right after a store copies while it does. */
function dirtyMb(): string {
  const kb = /^Dirty:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1];
  return kb === undefined ? "?" : `${(Number(kb) / 1024).toFixed(0)} MB`;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function benchDependencyCache(): Promise<Figures> {
  try {
    run(os.tmpdir(), "npm", ["view", `${PACKAGE}@${VERSION}`, "version"]);
  } catch {
    return { deps_cache_second_setup: notMeasured(`needs the npm registry (npm view ${PACKAGE}@${VERSION} failed)`, RATIO_GOAL) };
  }
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) return { deps_cache_second_setup: notMeasured(`no bubblewrap: ${chosen.reason}`, RATIO_GOAL) };
  const root = mkdtempSync(path.join(os.tmpdir(), "pg-bench-depcache-"));
  try {
    const source = path.join(root, "source");
    const packages = makeSource(source);
    const deps = new DependencyStore(path.join(root, "dependency-cache"), 10 * 1024 ** 3);
    const first = await sessionSetup(root, source, chosen.sandbox, deps, 1);
    const [entry] = await deps.entries();
    const tree = path.join(deps.root, "entries", entry.key, "tree", "node_modules");
    // Each restore is followed by a plain copy of the same tree, so the disk's speed at that moment is printed beside it.
    const restores: SetupTiming[] = [];
    const copies: number[] = [];
    const dirty: string[] = [];
    for (let n = 0; n < RESTORES; n++) {
      dirty.push(dirtyMb());
      restores.push(await sessionSetup(root, source, chosen.sandbox, deps, n + 2));
      copies.push(timedCopy(["-a", "--reflink=auto"], tree, path.join(root, `copy${n}`)));
    }
    const linkMs = timedCopy(["-al"], tree, path.join(root, "links"));
    const ratios = restores.map((r) => r.wallMs / first.wallMs);
    const ratio = median(ratios);
    const outcomes = [...new Set(restores.map((r) => r.outcome))].join(", ");
    console.error(
      `deps cache: restores ${restores.map((r, i) => `${s(r.wallMs)} (the copy ${s(r.commandMs)}, ${dirty[i]} dirty before)`).join(", ")}; node_modules copied right after each (cp -a --reflink=auto, what a restore does) ${copies.map(s).join(", ")}; hardlinked (cp -al, not used: shared inodes) ${s(linkMs)}`,
    );
    return {
      deps_cache_second_setup: {
        measured: `later sessions' setup ${s(median(restores.map((r) => r.wallMs)))} (median of ${RESTORES}, ${restores.map((r) => s(r.wallMs)).join(", ")}; cache: ${outcomes})`,
        baseline: `first session's setup ${s(first.wallMs)} (install ${s(first.commandMs)}, then storing ${(first.bytes / 1e6).toFixed(0)} MB)`,
        ratio,
        goal: RATIO_GOAL,
        ...spread(ratios),
        note: `${PACKAGE}@${VERSION}, ${packages} packages from the npm registry, \`${SETUP}\` through the egress proxy; one install (it takes minutes), then ${RESTORES} restores, each in a new session; min–max over the restores`,
      },
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchDependencyCache(), null, 2));
}
