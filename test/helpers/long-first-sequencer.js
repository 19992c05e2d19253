// @ts-check
/**
 * The order jest starts test files in (jest.config.js `testSequencer`). Two workers share the run, so
 * it ends when the later one ends: a four-minute file started last leaves the other worker idle for
 * those minutes. So the longest files go first and the short ones fill the gaps at the end (longest
 * processing time first).
 *
 * How long a file takes: what jest's cache measured on this machine, when it has it; else the
 * checked-in seconds below, of the files a clean full run showed taking 20 s or more; else a guess by
 * tier (a slow file may take minutes, a unit file a second), the bigger file first among equals.
 * Files that failed in the last run still go first, as jest's own order has them.
 */
import { relative } from "node:path";
import Sequencer from "@jest/test-sequencer";

/** Seconds each of the longest files took in a clean full run (2 workers). */
export const KNOWN_LONG = new Map([
  ["test/eval/suite.slow.test.ts", 187],
  ["test/github/crash/chaos-sqlite.slow.test.ts", 131],
  ["test/github/crash/crash-signed-push.integration.test.ts", 116],
  ["test/github/crash/chaos-scale-out.slow.test.ts", 99],
  ["test/eval/messy-suite.slow.test.ts", 79],
  ["test/github/automations/schedule-workers.slow.test.ts", 54],
  ["test/github/automations/schedule.integration.test.ts", 48],
  ["test/github/scale/deliveries-at-scale.slow.test.ts", 46],
  ["test/real-layouts/jest-project.slow.test.ts", 44],
  ["test/github/scale/fair-sessions-pg.slow.test.ts", 41],
  ["test/image/image.slow.test.ts", 38],
  ["test/agent/pinned-node-fetch.slow.test.ts", 35],
  ["test/github/crash/app-crash.integration.test.ts", 34],
  ["test/github/publish/lease-push.integration.test.ts", 32],
  ["test/real-layouts/vitest-typescript.slow.test.ts", 30],
  ["test/integrity-gate/github-session.integration.test.ts", 29],
  ["test/github/sessions/followup-retry.integration.test.ts", 27],
  ["test/github/crash/crash-receipt-note.integration.test.ts", 26],
  ["test/github/publish/verified-commits.slow.test.ts", 26],
  ["test/github/receipts/receipts-e2e.integration.test.ts", 26],
  ["test/github/crash/crash-start.integration.test.ts", 26],
  ["test/github/sessions/followup-setup-offline.slow.test.ts", 25],
  ["test/depcache/cli-store-crash.integration.test.ts", 25],
  ["test/mcp/session-flow.integration.test.ts", 24],
  ["test/process/helper-kept.integration.test.ts", 24],
  ["test/github/crash/crash-comment-late.integration.test.ts", 23],
  ["test/github/sessions/commands.integration.test.ts", 23],
  ["test/github/approvals/executable-config.integration.test.ts", 23],
  ["test/trace/check-run.test.ts", 23],
  ["test/receipt/verify-cli.integration.test.ts", 23],
  ["test/github/publish/provenance.integration.test.ts", 22],
  ["test/github/sessions/baseline-gate.slow.test.ts", 22],
  ["test/sandbox/bubblewrap-hardening.integration.test.ts", 22],
  ["test/github/crash/takeover-old-disk.integration.test.ts", 22],
  ["test/agent/publication-property.slow.test.ts", 21],
  ["test/github/crash/crash-inbox.integration.test.ts", 21],
  ["test/github/crash/restart.integration.test.ts", 21],
  ["test/github/crash/boot-resume.integration.test.ts", 21],
  ["test/newcomer/first-run.slow.test.ts", 21],
  ["test/sandbox/bubblewrap-limits.integration.test.ts", 20],
  ["test/sandbox/private-registries-go-cargo.slow.test.ts", 20],
  ["test/github/crash/abandoned-session-sandbox.integration.test.ts", 20],
  ["test/cli/cli-first-run.integration.test.ts", 20],
  ["test/integrity-gate/language-sessions.slow.test.ts", 20],
  ["test/grants/github-grant-decisions.integration.test.ts", 20],
  ["test/tools/file-ops-github.integration.test.ts", 20],
  ["test/real-layouts/mocha-project.slow.test.ts", 20],
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
