/** Jest runs the TypeScript sources as ESM through swc (fast, no type-check: `tsc --noEmit` does that). */
export default {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The live suite talks to a real provider: it is collected only when asked for (docs/evaluation.md, "Live suite").
  testPathIgnorePatterns: process.env.RUN_LIVE_TESTS === "1" ? ["/node_modules/"] : ["/node_modules/", "<rootDir>/test/live/"],
  // Before any test module: a suite started from inside git must not act on that repository.
  setupFiles: ["<rootDir>/test/helpers/outer-git-env.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/fakes/chat/no-violations.ts"],
  extensionsToTreatAsEsm: [".ts"],
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  transform: {
    "^.+\\.ts$": ["@swc/jest", { jsc: { parser: { syntax: "typescript" }, target: "es2022" }, module: { type: "es6" } }],
  },
  testTimeout: 60000,
  // Most test time is waiting on real processes (git, bubblewrap, node children, servers), so two
  // workers on two cores overlap it: a clean-clone CI took 801 s of jest instead of ~1,660 s with
  // jest's default of cores - 1 = one worker, at a load of 5-6.
  maxWorkers: 2,
};
