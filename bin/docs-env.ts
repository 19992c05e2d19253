// `npm run docs:env`: rewrites the operator variables' table in docs/configuration.md from the
// OperatorEnv schema (src/config/operator-env.ts); test/docs/operator-env-doc.test.ts checks it.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withGeneratedTable } from "../src/config/operator-env-doc.js";

const file = fileURLToPath(new URL("../docs/configuration.md", import.meta.url));
try {
  writeFileSync(file, withGeneratedTable(readFileSync(file, "utf8"), "docs/configuration.md"));
} catch (e) {
  process.stderr.write(`docs:env: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
