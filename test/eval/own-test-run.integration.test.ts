import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RepoConfigSchema } from "../../src/config/repo-config.js";
import { ownTestRun } from "../../src/eval/own-test-run.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import type { ToolchainRecord } from "../../src/session/types.js";
import { realSandbox } from "./run-helpers.js";

/**
 * The runner's own test run uses the toolchains the session resolved, not whatever comes first on
 * the sandbox's default PATH: a test command whose program only the session's toolchain has passes,
 * and the same run without that record cannot find it.
 */
let sandbox: Sandbox;
let dir: string;
let toolchain: ToolchainRecord;
beforeAll(async () => {
  sandbox = await realSandbox();
  dir = mkdtempSync(path.join(os.tmpdir(), "eval-own-run-"));
  const home = path.join(dir, "toolchain");
  mkdirSync(path.join(home, "bin"), { recursive: true });
  const program = path.join(home, "bin", "calc-check");
  writeFileSync(program, "#!/bin/sh\necho checked by the recorded toolchain\n");
  chmodSync(program, 0o755);
  mkdirSync(path.join(dir, "tree"));
  writeFileSync(path.join(dir, "tree", "README.md"), "# tree\n");
  toolchain = { name: "calc-check", version: "1.0.0", path: path.join(home, "bin"), binds: [home], how: "test" };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = RepoConfigSchema.parse({ test: "calc-check" });

test("the tests run on the session's recorded toolchain", async () => {
  const run = await ownTestRun(sandbox, path.join(dir, "tree"), config, dir, [toolchain]);
  expect([run.tests, run.exitCode, run.summary]).toEqual(["pass", 0, ""]);
});

test("without a recorded toolchain they run on the sandbox's own PATH, which lacks it", async () => {
  const run = await ownTestRun(sandbox, path.join(dir, "tree"), config, dir, null);
  expect([run.tests, run.exitCode]).toEqual(["fail", 127]);
});
