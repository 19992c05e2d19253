import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers/cli-process.js";
import { OperatorEnvSchema } from "../../src/config/operator-env-schema.js";

/**
 * `.env.example` lists every variable the README and docs/ tell an operator about, so copying it is a
 * complete start. Variables only the tests and CI's scripts read are named here as such; the benches'
 * own (`PATCHGATE_BENCH_*`) are documented with them in docs/benchmarks.md.
 */
const TEST_ONLY = new Set(["PATCHGATE_CI", "RUN_LIVE_TESTS", "PATCHGATE_TEST_DATABASE_URL", "PATCHGATE_NODE_HOME"]);
const NAMES =
  /\b(?:APP_ID|PRIVATE_KEY(?:_PATH)?|WEBHOOK_SECRET|WEBHOOK_PROXY_URL|GHE_HOST|GHE_PROTOCOL|NO_SMEE_SETUP|DATABASE_URL|(?:PATCHGATE|OPENAI)_[A-Z0-9]+(?:_[A-Z0-9]+)*)\b/g;

const documentation = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
]
  .map((f) => readFileSync(join(ROOT, f), "utf8"))
  .join("\n");

test("every variable the README and docs/ name is in .env.example", () => {
  const readme = new Set((documentation.match(NAMES) ?? []).filter((v) => !TEST_ONLY.has(v) && !v.startsWith("PATCHGATE_BENCH_") && !v.endsWith("_")));
  const example = readFileSync(join(ROOT, ".env.example"), "utf8");
  const listed = new Set([...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  expect(readme.size).toBeGreaterThan(20);
  expect([...readme].filter((v) => !listed.has(v)).sort()).toEqual([]);
});

test("every variable of the OperatorEnv schema is in .env.example", () => {
  const example = readFileSync(join(ROOT, ".env.example"), "utf8");
  const listed = new Set([...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const declared = Object.keys(OperatorEnvSchema.shape);
  expect(declared.length).toBeGreaterThan(30);
  expect(declared.filter((v) => !listed.has(v)).sort()).toEqual([]);
});

test("only what a fresh app needs is set; every optional variable is commented out, not empty", () => {
  const set = [...readFileSync(join(ROOT, ".env.example"), "utf8").matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
  expect(set.sort()).toEqual(["APP_ID", "NO_SMEE_SETUP", "OPENAI_API_KEY", "PRIVATE_KEY", "WEBHOOK_SECRET"]);
});
