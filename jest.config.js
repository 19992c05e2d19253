/**
 * Jest runs the TypeScript sources as ESM through swc (fast, no type-check: `tsc --noEmit` does that).
 *
 * The suite is in three tiers, and a test file's name says its tier (CONTRIBUTING.md, "Test tiers"):
 * - `*.test.ts` — unit: pure. Starting a process or opening a socket throws there
 *   (test/helpers/process-and-socket-guard.ts), so the tier stays fast (`npm run test:unit`).
 * - `*.integration.test.ts` — real processes, git, the sandbox, fake servers on 127.0.0.1.
 * - `*.slow.test.ts` — real project layouts, the image, the eval suites, chaos, PostgreSQL, the
 *   newcomer's first run: anything that may take minutes.
 * The tier is in the name, not the folder, because a concept's folder holds tests of every tier. A new
 * file with no suffix is a unit test; if it starts a process the guard fails it, so leaving the fast
 * tier is always a deliberate rename.
 */
const base = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  // The live suite talks to a real provider: it is collected only when asked for (docs/evaluation.md, "Live suite").
  testPathIgnorePatterns: process.env.RUN_LIVE_TESTS === "1" ? ["/node_modules/"] : ["/node_modules/", "<rootDir>/test/live/"],
  // Before any test module: a suite started from inside git must not act on that repository.
  setupFiles: ["<rootDir>/test/helpers/outer-git-env.ts"],
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } }],
  },
};

/** Every test file fails on a request a provider would refuse. */
const noChatViolations = "<rootDir>/test/fakes/chat/no-violations.ts";

export default {
  projects: [
    {
      ...base,
      displayName: "unit",
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: [...base.testPathIgnorePatterns, "\\.(integration|slow)\\.test\\.ts$"],
      setupFilesAfterEnv: ["<rootDir>/test/helpers/unit-tier-setup.ts", noChatViolations],
    },
    {
      ...base,
      displayName: "integration",
      testMatch: ["**/*.integration.test.ts"],
      setupFilesAfterEnv: ["<rootDir>/test/helpers/outer-tiers-setup.ts", noChatViolations],
    },
    {
      ...base,
      displayName: "slow",
      testMatch: ["**/*.slow.test.ts"],
      setupFilesAfterEnv: ["<rootDir>/test/helpers/outer-tiers-setup.ts", noChatViolations],
    },
  ],
  // Most test time is waiting on real processes (git, bubblewrap, node children, servers), so two
  // workers on two cores overlap it: a clean-clone CI took 801 s of jest instead of ~1,660 s with
  // jest's default of cores - 1 = one worker, at a load of 5-6.
  maxWorkers: 2,
  // The longest files start first, so the two workers end together (test/helpers/long-first-sequencer.js).
  testSequencer: "<rootDir>/test/helpers/long-first-sequencer.js",
  // A global option: in a project's own config jest ignores it.
  testTimeout: 60000,
};
