// @ts-check
/**
 * The order jest starts test files in (jest.config.js `testSequencer`). Two workers share the run, so
 * it ends when the later one ends: a four-minute file started last leaves the other worker idle for
 * those minutes. So the longest files go first and the short ones fill the gaps at the end (longest
 * processing time first).
 *
 * How long a file takes: what jest's cache measured on this machine, when it has it; else the
 * checked-in seconds below, of the files a clean full run showed taking 40 s or more; else a guess by
 * tier (a slow file may take minutes, a unit file a second), the bigger file first among equals.
 * Files that failed in the last run still go first, as jest's own order has them.
 */
import { relative } from "node:path";
import Sequencer from "@jest/test-sequencer";

/** Seconds each of the longest files took in a clean full run (2 workers). */
export const KNOWN_LONG = new Map([
  ["test/eval/suite.slow.test.ts", 167],
  ["test/eval/messy-suite.slow.test.ts", 108],
  ["test/github/crash/chaos-scale-out.slow.test.ts", 71],
  ["test/github/crash/chaos-sqlite.slow.test.ts", 113],
  ["test/receipt/verify-cli.integration.test.ts", 159],
  ["test/sandbox/private-registries.slow.test.ts", 150],
  ["test/image/image.slow.test.ts", 113],
  ["test/github/automations/schedule-workers.slow.test.ts", 107],
  ["test/github/crash/crash-signed-push.integration.test.ts", 96],
  ["test/sandbox/private-registries-go-cargo.slow.test.ts", 100],
  ["test/real-layouts/jest-project.slow.test.ts", 97],
  ["test/github/scale/fair-sessions-pg.slow.test.ts", 89],
  ["test/agent/publication-property.slow.test.ts", 87],
  ["test/github/approvals/executable-config.integration.test.ts", 86],
  ["test/github/crash/app-crash.integration.test.ts", 77],
  ["test/github/sessions/followup-retry.integration.test.ts", 74],
  ["test/cli/cli-first-run.integration.test.ts", 71],
  ["test/cli/cli-e2e.integration.test.ts", 67],
  ["test/cli/scale-out-commands.slow.test.ts", 61],
  ["test/cli/cli-toolchains.integration.test.ts", 60],
  ["test/depcache/cli-store-crash.integration.test.ts", 60],
  ["test/store/ledger-chain-sqlite.integration.test.ts", 58],
  ["test/github/scale/deliveries-at-scale.slow.test.ts", 45],
  ["test/github/publish/lease-push.integration.test.ts", 57],
  ["test/github/sessions/commands.integration.test.ts", 53],
  ["test/real-layouts/vitest-typescript.slow.test.ts", 53],
  ["test/github/publish/verified-commits.slow.test.ts", 52],
  ["test/cli/cli-mcp.integration.test.ts", 51],
  ["test/integrity-gate/language-sessions.slow.test.ts", 50],
  ["test/mcp/session-flow.integration.test.ts", 50],
  ["test/github/crash/restart.integration.test.ts", 49],
  ["test/github/receipts/receipts-e2e.integration.test.ts", 47],
  ["test/trace/check-run.test.ts", 43],
  ["test/github/crash/crash-start.integration.test.ts", 40],
]);

/** Seconds a file of each tier is guessed to take when nothing above says. */
const BY_TIER = { slow: 30, integration: 8, unit: 1 };

/** @param {string} path a test file's path relative to the repository */
export function tierOf(path) {
  return path.endsWith(".slow.test.ts") ? "slow" : path.endsWith(".integration.test.ts") ? "integration" : "unit";
}

/**
 * @typedef {{ path: string, failed: boolean, measuredMs: number | undefined, size: number }} FileFacts
 * `path` relative to the repository; `measuredMs` from jest's cache.
 */

/**
 * The files in the order to start them.
 * @template {FileFacts} T
 * @param {readonly T[]} files
 * @returns {T[]}
 */
export function longFirst(files) {
  const estimate = (/** @type {FileFacts} */ f) => f.measuredMs ?? 1000 * (KNOWN_LONG.get(f.path) ?? BY_TIER[tierOf(f.path)]);
  return [...files].sort((a, b) => {
    if (a.failed !== b.failed) return a.failed ? -1 : 1;
    return estimate(b) - estimate(a) || b.size - a.size || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  });
}

export default class LongFirstSequencer extends Sequencer {
  /**
   * @template {{ path: string, context: { config: { rootDir: string }, hasteFS: { getSize(path: string): number | null } } }} Test
   * @param {Test[]} tests
   */
  sort(tests) {
    // jest's readers of its cache: methods of the base class, private in its types only.
    const jest = /** @type {{ hasFailed(t: unknown): boolean, time(t: unknown): number | undefined }} */ (/** @type {unknown} */ (Sequencer.prototype));
    const facts = tests.map((test) => ({
      test,
      path: relative(test.context.config.rootDir, test.path).split("\\").join("/"),
      failed: jest.hasFailed.call(this, test),
      measuredMs: jest.time.call(this, test),
      size: test.context.hasteFS.getSize(test.path) ?? 0,
    }));
    return longFirst(facts).map((f) => f.test);
  }
}
